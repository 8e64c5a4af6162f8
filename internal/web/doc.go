// Package web serves solidarity over HTTP: the pool dashboard and state pages (HTML
// from embedded templates, no JavaScript needed), the JSON API under /api/v1, the
// OpenAPI document at /openapi.yaml, the probes /healthz and /readyz and Prometheus
// metrics at /metrics. With a ledger (WithLedger) it also serves login, live balances,
// the pledge and delivery forms, the ledger view and the ledger API; with a case service
// as well (WithCases), the case flow: arrivals, cases, deadlines and the access log, as
// pages and under /api/v1.
//
// Authorisation is the ledger service's: handlers put the authenticated user into the
// context (solidarity.NewContextWithUser), call the service and map its error codes to
// HTTP statuses. They decide nothing about permissions themselves, except which forms
// a page shows, read from the same role table (solidarity.Can).
//
// Where things are:
//
//	server.go      New, the options, the routes, the middleware chain, serving
//	request.go     reading a request: body, JSON, Idempotency-Key, path year and state
//	respond.go     answering one: writeJSON, apiError (the one error body), serviceError
//	auth.go        sessions, tokens, login and logout; limiter.go slows password guessing
//	handlers.go    the pool dashboard and state pages, the pool API and CSV, rendering pages, the API's 404 and 405
//	mapview.go     the dashboard's map; funcs.go the template functions
//	poolcache.go   balances and public pages kept while they cannot change
//	ledgerapi.go   the ledger API; verify.go its public verification and download;
//	               ledgerpages.go its pages and forms
//	casesapi.go    the case-flow API; casepages.go its pages; deadlinepages.go the
//	               deadline view and its CSV
//	matchapi.go    the matching API; matchpages.go the relocation page
//	account.go     the account page and user management
//	budget.go, proxy.go, ready.go, metrics.go   request budget, proxies and TLS, probes, metrics
package web
