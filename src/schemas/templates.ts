// "Create template" (service-spec.md "Templates"): 201, a JSON string (the template identifier).
import { id } from './common.js';

export const createTemplateResponse = id;
