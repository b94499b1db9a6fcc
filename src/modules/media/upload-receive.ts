import { open, readFile } from 'node:fs/promises';
import { cleanFileName, MAX_MEDIA_PER_PRODUCT } from '../../shared/media-rules.js';
import {
  ACCEPTED_TYPES_TEXT,
  checkText,
  type DetectedFile,
  MAX_FILE_BYTES,
  SIZE_LIMITS,
  SNIFF_BYTES,
  type Sniffed,
  sniff,
} from './file-type.js';

/** Files in one request (never more than the product's free slots). */
export const MAX_FILES_PER_REQUEST = MAX_MEDIA_PER_PRODUCT;
/** All files of one request together. */
export const MAX_REQUEST_BYTES = 250 * 1024 * 1024;

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

/** A refusal with the message the admin sees; the app's error handler turns it into {error, message}. */
export class UploadError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = STATUS_NAMES[statusCode] ?? 'Bad Request';
  }
}

/** One file of an upload as it arrives: its client-side name and its bytes, which may be cut short. */
export type IncomingFile = { filename: string; file: AsyncIterable<Buffer> & { truncated?: boolean } };

const MB = 1024 * 1024;
const kindLabel: Record<DetectedFile['mediaType'], string> = {
  image: 'images',
  video: 'videos',
  pdf: 'PDF files',
  txt: 'text files',
};

export function quoted(name: string): string {
  return `"${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`;
}

function refusedType(name: string, result: Extract<Sniffed, { ok: false }>): UploadError {
  return result.reason === 'markup'
    ? new UploadError(
        415,
        `${quoted(name)} was refused: SVG, HTML and other markup files are not allowed. ${ACCEPTED_TYPES_TEXT}`,
      )
    : new UploadError(415, `${quoted(name)} is not a supported file type. ${ACCEPTED_TYPES_TEXT}`);
}

function tooLarge(name: string, mediaType: DetectedFile['mediaType'] | null): UploadError {
  const limit = mediaType ? SIZE_LIMITS[mediaType] : MAX_FILE_BYTES;
  const what = mediaType ? kindLabel[mediaType] : 'files';
  return new UploadError(413, `${quoted(name)} is too large: ${what} can be at most ${limit / MB} MB.`);
}

/** The client's name, checked: it is kept only as a label, but a path in it means a crafted request. */
function displayName(raw: string, ext: string | null): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[/\\\u0000-\u001f\u007f]/.test(raw) || /^\.+$/.test(raw)) {
    throw new UploadError(
      400,
      'File names must be plain names: no folders ("/" or "\\"), no ".." and no control characters.',
    );
  }
  const clean = cleanFileName(raw);
  return clean === '' ? `upload${ext ? `.${ext}` : ''}` : clean;
}

export type ReceivedFile = { tempPath: string; fileName: string; detected: DetectedFile; size: number };

/**
 * Streams one file part to a temporary file, deciding its type from its first bytes and enforcing that
 * type's size limit as the bytes arrive. Text is confirmed over the whole file at the end.
 */
export async function receiveFile(
  part: IncomingFile,
  tempPath: string,
  budget: { bytesLeft: number },
): Promise<ReceivedFile> {
  const name = displayName(part.filename, null);
  let head = Buffer.alloc(0);
  let detected: DetectedFile | null = null;
  let size = 0;
  const decide = (bytes: Buffer): DetectedFile => {
    const result = sniff(bytes);
    if (!result.ok) throw refusedType(name, result);
    return result.file;
  };
  const handle = await open(tempPath, 'wx', 0o600);
  try {
    for await (const chunk of part.file) {
      size += chunk.length;
      budget.bytesLeft -= chunk.length;
      if (!detected) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= SNIFF_BYTES) detected = decide(head);
      }
      if (size > (detected ? SIZE_LIMITS[detected.mediaType] : MAX_FILE_BYTES)) {
        throw tooLarge(name, detected?.mediaType ?? null);
      }
      if (budget.bytesLeft < 0) {
        throw new UploadError(
          413,
          `This upload is too large: at most ${MAX_REQUEST_BYTES / MB} MB in one go.`,
        );
      }
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  if (part.file.truncated) throw tooLarge(name, detected?.mediaType ?? null);
  if (size === 0) throw new UploadError(400, `${quoted(name)} is empty.`);
  detected ??= decide(head);
  if (detected.mediaType === 'txt') {
    const whole = checkText(await readFile(tempPath), true);
    if (!whole.ok) throw refusedType(name, whole);
  }
  return { tempPath, fileName: displayName(part.filename, detected.ext), detected, size };
}
