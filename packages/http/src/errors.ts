import { GatewayError, openAiErrorBody, toGatewayError } from "@gw/errors";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";

type ErrorLogger = { error(obj: object, message: string): void };

export type ErrorRenderer = (error: GatewayError, response: Response) => unknown;

/** Renders the gateway's own envelope `{error: {message, type, code, metadata?}}` (code = HTTP status). */
export const renderOpenAiError: ErrorRenderer = (error) => openAiErrorBody(error);

/**
 * The last middleware of every app: catalogue errors keep their status; anything unexpected is
 * logged with its stack and answered as a generic 500 that leaks nothing.
 */
export function errorHandler(
  logger: ErrorLogger,
  render: ErrorRenderer = renderOpenAiError,
): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const gatewayError = toGatewayError(error);
    if (gatewayError.status >= 500) logger.error({ err: gatewayError.cause ?? error }, "request failed");
    for (const [name, value] of Object.entries(gatewayError.headers)) response.setHeader(name, value);
    response.status(gatewayError.status).json(render(gatewayError, response));
  };
}

export function notFoundHandler(): RequestHandler {
  return (request, _response, next) => {
    next(
      new GatewayError("not_found", `no route for ${request.method} ${request.path}`, {
        code: "route_not_found",
      }),
    );
  };
}
