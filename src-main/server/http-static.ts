/** What the loopback API serves besides operations: `/openapi.json` and the built UI's files. */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './http-reply.js';
import { openApiDocument } from './openapi.js';
import { contentTypeOf, resolveStaticFile } from './static-files.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

function serveFile(req: IncomingMessage, res: ServerResponse, webDir: string, pathname: string): boolean {
  const file = resolveStaticFile(webDir, pathname);
  if (file === null) return false;
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return false;
  }
  res.writeHead(200, {
    'Content-Type': contentTypeOf(file),
    'Content-Length': content.length,
    ...(file.endsWith('.html') ? { 'Cache-Control': 'no-store' } : { 'Cache-Control': 'no-cache' }),
  });
  res.end(req.method === 'HEAD' ? undefined : content);
  return true;
}

/** Answers GET/HEAD of `/openapi.json` (built once) and, with `webDir`, of the UI's files; anything else is E808 or E806. */
export function staticRoutes(version: string, webDir: string | undefined): (req: IncomingMessage, res: ServerResponse, pathname: string) => void {
  let openapi: string | undefined;
  return (req, res, pathname) => {
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    if (pathname === '/openapi.json') {
      if (!readOnly) return sendError(res, gatewayErrors.methodNotAllowed(req.method, '/openapi.json', 'GET'), { Allow: 'GET, HEAD' });
      openapi ??= JSON.stringify(openApiDocument(version));
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(openapi), 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : openapi);
      return;
    }
    if (webDir !== undefined) {
      if (!readOnly) return sendError(res, gatewayErrors.methodNotAllowed(req.method, pathname, 'GET'), { Allow: 'GET, HEAD' });
      if (serveFile(req, res, webDir, pathname)) return;
    }
    sendError(res, gatewayErrors.routeNotFound(req.method, pathname));
  };
}
