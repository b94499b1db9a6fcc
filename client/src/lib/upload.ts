import { askForFreshProof } from './fresh-proof';
import { forgetSession } from './trpc';

/** One file under its form field name; several entries may share a name. */
export type UploadPart = { field: string; file: File } | { field: string; value: string };

/** What an upload route answered: the parsed JSON body when it succeeded, its own message otherwise. */
export type UploadResult<Body> =
  | { ok: true; status: number; body: Body }
  | { ok: false; status: number; message: string };

/**
 * The admin's one way to send files: a multipart POST with upload progress (fetch cannot report it).
 * Same-origin, so the session cookie goes along. Parts are sent in the given order, because the server
 * reads plain fields before the files that follow them. A 401 signs the admin out in the client at once,
 * so the guard shows the sign-in page instead of a failed upload. Network failures resolve with status 0.
 */
export async function uploadWithProgress<Body>(
  url: string,
  parts: UploadPart[],
  options: { onProgress?: (percent: number) => void; fallbackMessage: string },
): Promise<UploadResult<Body>> {
  const result = await sendOnce<Body>(url, parts, options);
  // An upload that needs a fresh confirmation (a catalogue import) goes again once the admin has confirmed.
  if (result.status === 412 && (await askForFreshProof())) return sendOnce<Body>(url, parts, options);
  return result;
}

function sendOnce<Body>(
  url: string,
  parts: UploadPart[],
  options: { onProgress?: (percent: number) => void; fallbackMessage: string },
): Promise<UploadResult<Body>> {
  const form = new FormData();
  for (const part of parts) {
    if ('file' in part) form.append(part.field, part.file, part.file.name);
    else form.append(part.field, part.value);
  }
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as unknown;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true, status: xhr.status, body: body as Body });
        return;
      }
      if (xhr.status === 401) forgetSession();
      const message =
        body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
          ? (body as { message: string }).message
          : options.fallbackMessage;
      resolve({ ok: false, status: xhr.status, message });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, message: options.fallbackMessage });
    xhr.onabort = xhr.onerror;
    xhr.send(form);
  });
}
