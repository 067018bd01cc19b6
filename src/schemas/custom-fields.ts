// Response of "Create custom field" (service-spec.md "Custom fields"): 201 with
// a body the spec does not show. Accepted as it comes; the command looks for
// the generated Key in a bare string or a {Key} object.
import * as z from 'zod/mini';

export const createCustomFieldResponse = z.unknown();
