/** What a multipart upload answered: its status and parsed JSON body (null when there was none). */
export type UploadResponse = { status: number; body: unknown };

/**
 * POSTs a FormData with upload progress (fetch cannot report it). Same-origin, so the session cookie goes
 * along. Network failures resolve with status 0 rather than throwing.
 */
export function postWithProgress(
  url: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<UploadResponse> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response as unknown });
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.onabort = xhr.onerror;
    xhr.send(form);
  });
}
