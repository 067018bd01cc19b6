// Response of "Create custom field" (service-spec.md "Custom fields"): 201 with
// a body the spec does not show. Accepted as it comes; the command looks for
// the generated Key in a bare string or a {Key} object.
import { z } from './common.js';

export const createCustomFieldResponse = z.unknown();
