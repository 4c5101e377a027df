import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { createConsoleRouter } from "./app/router";
import { SessionProvider } from "./session/session-context";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={createConsoleRouter()} />
    </SessionProvider>
  </StrictMode>,
);
