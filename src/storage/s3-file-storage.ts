import { Readable } from 'node:stream';
import {
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { warnOnceAboutSdkNodeSupport } from './aws-sdk-node-warning.js';
import { contentTypeFor } from './content-types.js';
import {
  type ByteRange,
  type FileStorage,
  type StoredFile,
  type StoredFileInfo,
  StoredFileMissing,
} from './file-storage.js';
import { checkKey, checkPrefix, isSafeKey } from './storage-keys.js';

export type S3StorageOptions = {
  bucket: string;
  /** An S3-compatible server (MinIO, R2, Ceph…); null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** bucket in the path (http://host/bucket/key) instead of the host name; most self-hosted servers need it. */
  forcePathStyle: boolean;
  /** Only for tests: otherwise the AWS SDK's own chain (AWS_ACCESS_KEY_ID…, AWS_PROFILE, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Only for tests of paging: keys per list request (S3's default and maximum is 1000). */
  listPageSize?: number;
};

/** What the SDK says about a key or bucket that does not exist (HEAD answers carry no error code). */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

/**
 * The requested range and no more. The media route has already promised the client a Content-Length, and
 * a server that sends more than asked (s3rver does for a range ending at byte 0) would break the response.
 */
function exactRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  if (contentRange !== undefined && !contentRange.startsWith(`bytes ${range.start}-`)) {
    body.destroy();
    throw new Error(`S3 answered the range ${range.start}-${range.end} with ${contentRange}`);
  }
  let left = range.end - range.start + 1;
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of body) {
          const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
          if (bytes.length >= left) {
            yield bytes.subarray(0, left);
            return;
          }
          left -= bytes.length;
          yield bytes;
        }
      } finally {
        body.destroy();
      }
    })(),
  );
}

/** What went wrong, without the SDK's long messages (which may quote the request). */
function detailOf(error: unknown): string {
  return error instanceof S3ServiceException
    ? `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})`
    : error instanceof Error
      ? error.message
      : String(error);
}

export class StorageUnreachable extends Error {
  override name = 'StorageUnreachable';
}

/**
 * The server answered that there is no such bucket: a bucket is never created by the store's start, only by
 * the operator or `npm run move-to-postgres -- --create-bucket`, so a typo in S3_BUCKET cannot make one.
 */
export class BucketMissing extends StorageUnreachable {
  override name = 'BucketMissing';
  constructor(
    readonly bucket: string,
    where: string,
  ) {
    super(
      `The S3 bucket ${bucket} does not exist${where}: create it (aws s3 mb s3://${bucket}, mc mb ALIAS/${bucket} or your provider's console) or check S3_BUCKET and S3_ENDPOINT.`,
    );
  }
}

/**
 * Files in an S3-compatible bucket, for several store processes sharing them (S3_BUCKET). Keys are the
 * storage keys as they are, at the bucket's root. PutObject replaces an object whole, so readers see the old
 * file or the new one, as with the local folder's rename.
 */
export class S3FileStorage implements FileStorage {
  readonly shared = true;
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly endpoint: string | null;
  private readonly region: string;
  private readonly listPageSize: number | undefined;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.endpoint = options.endpoint;
    this.region = options.region;
    this.listPageSize = options.listPageSize;
    this.description = `S3 bucket ${options.bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
    warnOnceAboutSdkNodeSupport();
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them: the SDK's newer default (a CRC on every request and answer)
      // is refused or ignored by many S3-compatible servers, and the bytes already cross TLS.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        // A bucket that does not answer must fail a request, not hang it (the SDK waits forever by default).
        connectionTimeout: 5_000,
        socketTimeout: 30_000,
        // Media responses hold a connection while large files stream to a slow client (see decision 0016).
        httpAgent: { keepAlive: true, maxSockets: 200 },
        httpsAgent: { keepAlive: true, maxSockets: 200 },
      },
    });
  }

  /** Asked once at start, so a wrong bucket, endpoint or key stops the store with a clear message. */
  async checkReachable(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if (isNotFound(error))
        throw new BucketMissing(
          this.bucket,
          this.endpoint ? ` at ${this.endpoint}` : ` in the AWS region ${this.region}`,
        );
      throw new StorageUnreachable(`Cannot use the ${this.description}: ${detailOf(error)}`);
    }
  }

  /**
   * Creates the bucket, private as S3 makes new buckets. Outside us-east-1, AWS wants the region named in the
   * request (and refuses it in us-east-1); S3-compatible servers accept either, and have region names of
   * their own that the SDK's list of AWS regions does not hold, hence the cast.
   */
  async createBucket(): Promise<void> {
    try {
      await this.client.send(
        new CreateBucketCommand({
          Bucket: this.bucket,
          ...(this.region === 'us-east-1'
            ? {}
            : { CreateBucketConfiguration: { LocationConstraint: this.region as BucketLocationConstraint } }),
        }),
      );
    } catch (error) {
      throw new StorageUnreachable(`Cannot create the ${this.description}: ${detailOf(error)}`);
    }
  }

  async put(key: string, data: Buffer | Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: data,
        ContentLength: data.byteLength,
        // For whoever looks at the bucket directly; the store's own answers set their own headers.
        ContentType: contentTypeFor(key),
      }),
    );
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.stream(key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    let answer: GetObjectCommandOutput;
    try {
      answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: checkKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new StoredFileMissing(key);
      throw error;
    }
    // In Node the SDK hands back the HTTP response itself, a Readable.
    const body = answer.Body;
    if (!(body instanceof Readable)) throw new Error('S3 answered without a readable body');
    return range ? exactRange(body, range, answer.ContentRange) : body;
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return {
        size: head.ContentLength ?? 0,
        // S3's ETag is already a quoted strong validator (the MD5 of a single-part upload).
        etag: head.ETag ?? `"${head.ContentLength ?? 0}-${head.LastModified?.getTime() ?? 0}"`,
        lastModified: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async remove(key: string): Promise<void> {
    // S3 answers 204 whether or not the object was there.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    checkPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: this.listPageSize,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined || !isSafeKey(item.Key)) continue;
        yield { key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's idle connections (tests, and a tidy shutdown). */
  close(): void {
    this.client.destroy();
  }
}
