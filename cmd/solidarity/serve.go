package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/web"
)

const serveHelp = `Usage: solidarity serve [--addr 127.0.0.1:8080] [--db DSN] [--demo] [--cycle YEAR] [--log text|json] [--apply-missed 1h]
       [--tls-cert FILE --tls-key FILE] [--trusted-proxy CIDR[,CIDR]] [--request-budget 30s]
       [--public-max-age 1s]

Serves the pool dashboard (table and map of Europe coloured by fair share, coverage or
pledge type) with live balances from the ledger, a page per state with its pledges,
deliveries and pace, the ledger view, the JSON API under /api/v1, the OpenAPI document at
/openapi.yaml, Prometheus metrics at /metrics and the probes /healthz and /readyz.

--db is a SQLite file (default $SOLIDARITY_DB or ./solidarity.db, created on first use)
or a postgres:// URL. A new ledger is seeded with the shipped cycles. The first start on
a new SQLite file, or any start with --demo, also seeds the demonstration: one user per
role (if the database has none), whose passwords are printed once on standard output,
and the Diciotti replay (Catania, August 2018, under today's rules with generated
people: /arrivals once logged in) in a demonstration cycle of its own (9026), labelled
"demonstration" on every page and in JSON and never counted in the real 2026 pool.
A later start finishes a demonstration begun before; --demo=false never seeds one; a
PostgreSQL database gets one only with --demo.

--tls-cert and --tls-key serve https directly. Behind a TLS-terminating reverse proxy,
--trusted-proxy names the proxy's addresses: from them (and only from them)
X-Forwarded-Proto makes the session cookie Secure and X-Forwarded-For names the client
for the login throttle.

--request-budget is the time one request may take (default 30s): a request not answered
by then is stopped and answered 503 with Retry-After. It must be a positive duration
(0 is refused, not read as "no limit"). The slowest request, a relocation proposal,
needs up to two solves of 10 s: a budget below 20s is logged as a warning at the start.

--public-max-age is how old the public's (anonymous) answers of the dashboard, the state
pages and the balances may be (default 1s): they are computed once per such window, not
once per write, and each names the ledger entry and the time it shows. 0 computes them
at every change of the ledger. A signed-in user's page is always computed.

Personal records are encrypted with the keys in $SOLIDARITY_KEYS_FILE (or
$SOLIDARITY_KEYS); a SQLite database without them gets a key file beside it (DB.keys),
a PostgreSQL database refuses to start. The server reloads the key file on SIGHUP and
when it changes, so 'solidarity keys new' and 'keys reseal' need no restart.
`

// DefaultPublicMaxAge is serve's --public-max-age: a second behind the ledger is
// invisible to a reader of published figures, and under load it turns one computation
// of the dashboard per write into one per second.
const DefaultPublicMaxAge = time.Second

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", serveHelp, stdout, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	year := fs.Int("cycle", 2026, "the `year` the dashboard opens on")
	logFormat := fs.String("log", "text", "log `format`: text or json")
	dsn := fs.String("db", "", "database: a SQLite `file` or a postgres:// URL")
	demo := fs.Bool("demo", false, "seed the demonstration (users, the Diciotti replay in its own cycle); default: on the first start of a new SQLite file")
	tlsCert := fs.String("tls-cert", "", "serve https with the certificate chain in this PEM `file`")
	tlsKey := fs.String("tls-key", "", "the private key of --tls-cert, a PEM `file`")
	trusted := fs.String("trusted-proxy", "", "believe X-Forwarded-Proto and X-Forwarded-For from these `CIDRs` (comma-separated)")
	applyEvery := fs.Duration("apply-missed", 0, "apply the consequences of missed time limits every `interval` (0: only on request)")
	publicAge := fs.Duration("public-max-age", DefaultPublicMaxAge, "how old the public's dashboard, state pages and balances may be (`duration`; 0: exact)")
	contact := fs.String("accessibility-contact", "", "the e-mail or web address the accessibility statement gives for feedback (Directive (EU) 2016/2102)")
	budget := fs.Duration("request-budget", web.DefaultRequestBudget, "the `time` one request may take before it is answered 503 (positive)")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if !slices.Contains(cyclefile.Shipped(), *year) {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--cycle", Message: fmt.Sprintf("no shipped cycle %d (shipped: %v)", *year, cyclefile.Shipped())}
	}
	if *budget <= 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--request-budget", Message: fmt.Sprintf("%v: the budget of a request is a positive duration such as 30s", *budget)}
	}
	if *publicAge < 0 || *publicAge > time.Minute {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--public-max-age", Message: fmt.Sprintf("%v: from 0 (exact) to 1m", *publicAge)}
	}
	proxies, err := web.ParseTrustedProxies(*trusted)
	if err != nil {
		return err
	}
	if err := web.CheckTLS(*tlsCert, *tlsKey); err != nil {
		return err
	}
	var h slog.Handler
	switch *logFormat {
	case "text":
		h = slog.NewTextHandler(stderr, nil)
	case "json":
		h = slog.NewJSONHandler(stderr, nil)
	default:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--log", Message: "want text or json"}
	}
	logger := slog.New(h)
	if *budget < 2*casesvc.MatchTimeLimit {
		logger.Warn("the request budget is shorter than the two solves of a relocation proposal: a proposal may be answered 503",
			slog.Duration("request_budget", *budget), slog.Duration("proposal_needs", 2*casesvc.MatchTimeLimit))
	}

	// Listen first: a busy port fails the start before anything is created or seeded.
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	firstStart := app.IsNewLocal(app.DSN(*dsn))
	st, err := app.Open(ctx, app.DSN(*dsn))
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.Ledger(st)
	seedDemo, err := wantDemo(ctx, fs, *demo, firstStart, svc)
	if err != nil {
		return err
	}
	creds, err := app.Seed(ctx, svc, seedDemo)
	if err != nil {
		return err
	}
	if len(creds) > 0 {
		fmt.Fprintln(stdout, "Demonstration users (shown once; log in at /login):")
		for _, c := range creds {
			fmt.Fprintf(stdout, "  %-12s %-11s %-3s password %s\n", c.Name, c.Role, c.State, c.Password)
		}
	}
	keys, created, err := app.Keys(ctx, app.DSN(*dsn), st)
	if err != nil {
		return err
	}
	if created != "" {
		logger.Warn("created an encryption key for personal records beside the database; back it up, or set SOLIDARITY_KEYS_FILE", slog.String("file", created))
	}
	cases := app.CasesOn(st, svc, keys)
	// Key rotation without a restart: reload the keys on SIGHUP and when the key file
	// changes (and at once on a value sealed with a key not yet loaded).
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go app.WatchKeys(ctx, keys, app.KeysFile(app.DSN(*dsn)), keysPoll, hup, logger)
	if seedDemo {
		// The Diciotti replay (internal/scenario): idempotent, so every start
		// finishes what an interrupted one began and otherwise changes nothing.
		if err := app.SeedDiciotti(ctx, svc, cases); err != nil {
			return fmt.Errorf("seeding the Diciotti demo: %w", err)
		}
	}
	if *applyEvery > 0 {
		go applyMissed(ctx, cases, *applyEvery, logger)
	}
	// The server serves shipped reference data only: a request must never reach files
	// on disk.
	srv, err := web.New(&catalog.Catalog{}, logger, *year, web.WithLedger(svc), web.WithCases(cases),
		web.WithTrustedProxies(proxies), web.WithTLS(*tlsCert, *tlsKey), web.WithRequestBudget(*budget), web.WithPublicMaxAge(*publicAge), web.WithAccessibilityContact(*contact))
	if err != nil {
		return err
	}
	return srv.Serve(ctx, ln, func(a net.Addr) {
		scheme := "http://"
		if srv.TLS() {
			scheme = "https://"
		}
		logger.Info("serving", slog.String("url", scheme+a.String()+"/"), slog.Bool("postgres", app.IsPostgres(app.DSN(*dsn))))
		if f := os.Getenv("SOLIDARITY_ADDR_FILE"); f != "" {
			// Lets tests that start the binary on :0 find the port.
			os.WriteFile(f, []byte(a.String()), 0o644)
		}
	})
}

// wantDemo decides whether serve seeds the demonstration: as --demo says when it is
// given; else on the first start of a new local SQLite file, and to finish a
// demonstration the ledger already has (an interrupted seed).
func wantDemo(ctx context.Context, fs *flag.FlagSet, demo, firstStart bool, svc *ledgersvc.Service) (bool, error) {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "demo" })
	switch {
	case given:
		return demo, nil
	case firstStart:
		return true, nil
	}
	return app.HasDemo(ctx, svc)
}

// keysPoll is how often serve looks at the key file for a change.
const keysPoll = 2 * time.Second

// listen opens the server's socket; an address in use or one that cannot be bound is
// bad input naming --addr.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--addr", Message: fmt.Sprintf("address in use: pass --addr (%s is taken by another process)", addr)}
	case err != nil:
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--addr", Message: fmt.Sprintf("cannot listen on %s: %v", addr, err)}
	}
	return ln, nil
}

// applyMissed records, as the system, the consequences the law attaches to missed time
// limits (tacit acceptance, responsibility shifting, ...) every interval until ctx ends.
func applyMissed(ctx context.Context, cases *casesvc.Service, every time.Duration, logger *slog.Logger) {
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		out, err := cases.ApplyMissed(sys)
		if err != nil {
			logger.Error("applying missed time limits", slog.String("error", err.Error()))
		} else if len(out) > 0 {
			logger.Info("applied missed time limits", slog.Int("consequences", len(out)))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
