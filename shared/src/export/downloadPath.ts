/** The service's own route; the gateway serves it to the public as /exports/<resource>. */
export const EXPORT_DOWNLOAD_PATH = '/exports/download';
