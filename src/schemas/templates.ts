// "Create template" (service-spec.md "Templates"): 201, a JSON string (the template identifier).
import { bareString } from './common.js';

export const createTemplateResponse = bareString;
