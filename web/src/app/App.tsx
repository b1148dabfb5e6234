import { useMemo } from "react";
import { ApolloProvider } from "@apollo/client/react";
import { BrowserRouter } from "react-router";
import { I18nProvider } from "../i18n/I18nProvider.tsx";
import { ErrorBoundary } from "../features/errors/ErrorPage.tsx";
import { createApolloClient } from "../lib/apollo.ts";
import { AppRoutes } from "./routes.tsx";

export function App() {
  const client = useMemo(createApolloClient, []);
  return (
    <ApolloProvider client={client}>
      <I18nProvider>
        <ErrorBoundary>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ErrorBoundary>
      </I18nProvider>
    </ApolloProvider>
  );
}
