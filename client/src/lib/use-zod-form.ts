import { useCallback, useState } from 'react';

/** Field errors keyed by the dotted path of the value ('title', 'shippingOptions.0.amount'). */
export type FieldErrors = Record<string, string>;

/** What a form is checked by: a Zod schema's safeParse, or a check shaped like it for pages without Zod. */
export type FormCheck<Output> = {
  safeParse(values: unknown):
    | { success: true; data: Output }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
      };
};

/** The first message per path, so a field shows one clear error rather than a list. */
export function zodFieldErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (key && !(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/**
 * The field errors the server sent with a BAD_REQUEST (its error formatter flattens the Zod error), or
 * an empty map for any other failure. `within` names the input's field the form edits ('fields' for
 * { id, fields }): its errors are then read at their full paths inside it ('colors.2.name').
 */
export function serverFieldErrors(data: unknown, within?: string): FieldErrors {
  const zodError = (
    data as {
      zodError?: {
        fieldErrors?: Record<string, string[] | undefined>;
        paths?: Record<string, string> | undefined;
      } | null;
    }
  )?.zodError;
  const errors: FieldErrors = {};
  if (within !== undefined && zodError?.paths) {
    const prefix = `${within}.`;
    for (const [path, message] of Object.entries(zodError.paths))
      if (path.startsWith(prefix)) errors[path.slice(prefix.length)] = message;
    return errors;
  }
  for (const [key, messages] of Object.entries(zodError?.fieldErrors ?? {})) {
    const first = messages?.[0];
    if (first) errors[key] = first;
  }
  return errors;
}

/** Why the server refused a save: its message, and its code (CONFLICT, BAD_REQUEST…) when it sent one. */
export type Refusal = { message: string; code: string | undefined; fieldErrors: FieldErrors };

function refusalOf(error: unknown, within: string | undefined): Refusal {
  const e = (error ?? {}) as { message?: unknown; data?: { code?: unknown } | null };
  const data = e.data ?? null;
  return {
    message: typeof e.message === 'string' ? e.message : 'The server refused the change',
    code: typeof data?.code === 'string' ? data.code : undefined,
    fieldErrors: serverFieldErrors(data, within),
  };
}

/** The error for a field, or for anything inside it ('sizes' answers for 'sizes.2'). */
export function errorAt(errors: FieldErrors, key: string): string | undefined {
  if (errors[key]) return errors[key];
  const prefix = `${key}.`;
  for (const [path, message] of Object.entries(errors)) if (path.startsWith(prefix)) return message;
  return undefined;
}

/**
 * Form state checked by the same Zod schema the server uses: the browser shows each message next to its
 * field before anything is sent, and the server's own field errors land in the same places.
 */
export function useZodForm<Values extends object, Output>(
  // Any schema that reads these values (a Zod schema, or a hand-written check with the same answer).
  schema: FormCheck<Output>,
  initial: Values,
  /** The field of the mutation's input these values are (see serverFieldErrors). */
  options: { serverField?: string } = {},
) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = useCallback(<K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
  }, []);

  /** The parsed values when they pass, or null after showing what is wrong. */
  const validate = (): Output | null => {
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    setErrors(zodFieldErrors(result.error.issues));
    return null;
  };

  return {
    values,
    setValues,
    set,
    errors,
    setErrors,
    error: (key: string) => errorAt(errors, key),
    hasErrors: Object.keys(errors).length > 0,
    validate,
    /**
     * Checks the values, then hands them to `send` (a mutateAsync). 'invalid' when the browser stopped it,
     * 'saved' when the server took it, else the server's refusal, whose field errors are then shown.
     */
    async save(send: (values: Values) => Promise<unknown>): Promise<'invalid' | 'saved' | Refusal> {
      if (validate() === null) return 'invalid';
      try {
        await send(values);
        return 'saved';
      } catch (error) {
        const refusal = refusalOf(error, options.serverField);
        setErrors(refusal.fieldErrors);
        return refusal;
      }
    },
  };
}
