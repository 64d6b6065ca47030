/** host:port as URLs and the Host header write it: an IPv6 address in brackets (RFC 3986 §3.2.2). */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
