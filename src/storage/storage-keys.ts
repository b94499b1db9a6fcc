/**
 * Where each kind of file lives in the file storage. Keys are relative paths with forward slashes; the
 * orphan sweep and backups walk these prefixes.
 */

/**
 * Uploaded product media and the banner image, under generated names. The media module deletes only keys
 * under it.
 */
export const UPLOADS_PREFIX = 'media/uploads/';

/** Catalogue version files (YAML exports, imports and backups). */
export const CATALOG_PREFIX = 'catalogs/';
