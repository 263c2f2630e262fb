import { z } from "zod";

/** A signup request body. */
export const Signup = z.object({ email: z.string().email(), name: z.string().min(1) });
