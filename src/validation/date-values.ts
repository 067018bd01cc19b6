// Values shaped like dates, read the ways a person may have meant them. No endpoint tells a
// field's type, so a reading is said to the user, never used to rewrite what they typed, except
// where a rule says so (the import's slashed dates, --date-only).

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1]!;
}

export interface DateReading {
  ymd: string;
  words: string;
}

const YEAR_FIRST = /^(\d{4})([/-])(\d{1,2})\2(\d{1,2})$/;
const DAY_MONTH = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;

function reading(year: number, month: number, day: number): DateReading {
  return { ymd: `${String(year).padStart(4, '0')}/${pad2(month)}/${pad2(day)}`, words: `${day} ${MONTHS[month - 1]} ${year}` };
}

/** Two readings only when both are days and differ; undefined for 0000-00-00, which clears a Date field. */
export function dateReadings(value: string): DateReading[] | undefined {
  const yearFirst = YEAR_FIRST.exec(value);
  if (yearFirst) {
    const [year, month, day] = [Number(yearFirst[1]), Number(yearFirst[3]), Number(yearFirst[4])];
    if (year === 0 && month === 0 && day === 0) return undefined;
    return isRealDate(year, month, day) ? [reading(year, month, day)] : [];
  }
  const slashed = DAY_MONTH.exec(value);
  if (!slashed) return undefined;
  const [a, b, year] = [Number(slashed[1]), Number(slashed[3]), Number(slashed[4])];
  const readings: DateReading[] = [];
  if (isRealDate(year, b, a)) readings.push(reading(year, b, a));
  if (a !== b && isRealDate(year, a, b)) readings.push(reading(year, a, b));
  return readings;
}

// After the date: a time (hh:mm, :ss, a fraction, AM/PM) and a zone (Z, UTC, GMT, ±hh[:mm]), as exports write them.
const TIME = /^(?:[ T]|, ?)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?: ?[AaPp][Mm])?(?: ?(?:Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?))?$/;

/** Cheap for values that cannot be one: the import asks it of every custom field value. */
export function dateTimeDatePart(value: string): string | undefined {
  const length = value.length;
  if (length < 13 || length > 40) return undefined;
  const first = value.charCodeAt(0);
  if (first < 48 || first > 57) return undefined;
  for (let end = 8; end <= 10; end++) {
    const c = value.charCodeAt(end);
    if (c !== 32 && c !== 84 && c !== 44) continue; // ' ', 'T', ','
    const date = value.slice(0, end);
    if (dateReadings(date) !== undefined && TIME.test(value.slice(end))) return date;
  }
  return undefined;
}

function sendAs(key: string, r: DateReading): string {
  return `--field "${key}=${r.ymd}"`;
}

function choices(key: string, readings: DateReading[]): string {
  return readings.map((r) => `${r.words} (${sendAs(key, r)})`).join(' or ');
}

/** Said when a value sent as typed may not be what a Date field stores. */
export function typedDateNotice(key: string, value: string): string | undefined {
  const shown = `--field ${key} "${value}"`;
  const datePart = dateTimeDatePart(value);
  if (datePart !== undefined) {
    const readings = dateReadings(datePart)!;
    const send =
      readings.length === 1 ? `to send its date, ${sendAs(key, readings[0]!)}` : readings.length === 2 ? `its date is ${choices(key, readings)}` : 'its date part is no calendar day';
    return `${shown} is a date and a time, sent as typed: a Date field keeps yyyy/mm/dd only and stores nothing of it; ${send}`;
  }
  const readings = dateReadings(value);
  if (readings === undefined) return undefined;
  if (readings.length === 1) {
    if (readings[0]!.ymd === value) return undefined;
    return `${shown} is sent as typed; a Date field takes yyyy/mm/dd: if ${key} is one, send ${sendAs(key, readings[0]!)}`;
  }
  if (readings.length === 2) return `${shown} is sent as typed; a Date field takes yyyy/mm/dd, and this reads as ${choices(key, readings)}`;
  return `${shown} is sent as typed; it is no calendar day in any reading, so a Date field would not store it`;
}
