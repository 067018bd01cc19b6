// Seed of the campaign side (segments, campaigns, templates, smart emails).
// Placeholder: filled in with the campaign routes.
import type { State } from './types.js';

export function seedCampaigns(_state: State, _now: Date): void {}
