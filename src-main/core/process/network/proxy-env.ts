/** The variables that point a tool at its run's proxy: the names curl, wget, git, pip, npm and most HTTP libraries read. */

/**
 * For a proxy at `hostPort` (`127.0.0.1:3128`): HTTP and HTTPS through it (CONNECT for https), and
 * SOCKS5 with the name resolved by the proxy (`socks5h`: the sandbox has no DNS of its own). Both
 * spellings, since curl reads only the lowercase http_proxy; NO_PROXY is emptied so that nothing,
 * loopback included, goes around it.
 */
export function proxyEnv(hostPort: string): Record<string, string> {
  const http = `http://${hostPort}`;
  const socks = `socks5h://${hostPort}`;
  return {
    HTTP_PROXY: http,
    http_proxy: http,
    HTTPS_PROXY: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
    NO_PROXY: '',
    no_proxy: '',
  };
}
