// What a content check reports: the service's code and a message naming the
// problem (service-spec.md "Coded errors by area").

export interface ContentProblem {
  code: number;
  message: string;
}

/** Problems in the order found, each code once; a route answers with the first. */
export class ProblemList {
  readonly items: ContentProblem[] = [];

  add(code: number, message: string): void {
    if (!this.items.some((p) => p.code === code)) this.items.push({ code, message });
  }

  addAll(problems: readonly ContentProblem[]): void {
    for (const p of problems) this.add(p.code, p.message);
  }
}
