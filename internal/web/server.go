package web

import (
	"context"
	"crypto/tls"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/casesvc"
	"solidarity/internal/catalog"
	"solidarity/internal/client"
	"solidarity/internal/euromap"
	"solidarity/internal/ledgersvc"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI returns the OpenAPI document served at /openapi.yaml.
func OpenAPI() []byte { return openAPI }

// Server is the HTTP server. Create it with New; its zero value is not usable.
type Server struct {
	a11yContact string // the accessibility statement's contact, if the operator gave one

	Catalog *catalog.Catalog
	Logger  *slog.Logger
	// DefaultCycle is the year the dashboard opens on.
	DefaultCycle int

	ledger  *ledgersvc.Service // nil: the dashboard of shipped data only, no login
	cases   *casesvc.Service   // nil: no case flow (needs a ledger too)
	now     func() time.Time
	logins  *loginLimiter
	metrics *metrics
	tmpl    map[string]*template.Template
	europe  *euromap.Map
	mux     *http.ServeMux
	handler http.Handler
	budget  time.Duration // of one request (budget.go)
	pools   poolCache     // balances as of now and shipped pools (poolcache.go)
	// publicMaxAge is how old a public answer may be (WithPublicMaxAge); 0: exact.
	publicMaxAge time.Duration

	proxies         []netip.Prefix // WithTrustedProxies
	tlsCert, tlsKey string         // WithTLS
	tlsConfig       *tls.Config
	addrLimit       *limiter // WithAddressLimit
	probe           readyProbe
	demo            demoCache // whether the ledger holds a demonstration (handlers.go)
}

// Option configures a Server.
type Option func(*Server)

// WithLedger serves the ledger: live balances on the dashboard, the state pages' forms,
// the ledger view, login, and the ledger API under /api/v1/ledger, /api/v1/users,
// /api/v1/tokens and /api/v1/session. Without it those routes answer 404.
func WithLedger(svc *ledgersvc.Service) Option { return func(s *Server) { s.ledger = svc } }

// WithCases serves the case flow on a server with a ledger (WithLedger): the pages
// /arrivals, /cases, /deadlines, /access-log and /relocation (the matching engine's
// proposals), and the API under /api/v1/arrivals, /api/v1/cases, /api/v1/deadlines,
// /api/v1/access-log and /api/v1/relocation. Without it those routes answer 404.
func WithCases(svc *casesvc.Service) Option { return func(s *Server) { s.cases = svc } }

// WithClock replaces the clock of the login rate limit (tests).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithLoginLimit sets how many failed logins of a user name from one client address
// are free before further attempts get 429, and the first wait, which doubles with
// every further failure (default 5, then a minute; see limiter.go).
func WithLoginLimit(failures int, wait time.Duration) Option {
	return func(s *Server) { s.logins = newLoginLimiter(failures, wait, nil) }
}

// Pages of the site; each is parsed with layout.html at start.
var pages = []string{"pool.html", "state.html", "error.html", "login.html", "ledger.html",
	"arrivals.html", "arrival.html", "case.html", "deadlines.html", "accesslog.html", "proposal.html", "accessibility.html", "whatif.html"}

// New parses every template and builds the map once, so that a broken template or map
// fails the start, not a user's click.
func New(cat *catalog.Catalog, logger *slog.Logger, defaultCycle int, opts ...Option) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{Catalog: cat, Logger: logger, DefaultCycle: defaultCycle, tmpl: map[string]*template.Template{},
		now: time.Now, metrics: newMetrics()}
	for _, o := range opts {
		o(s)
	}
	if s.logins == nil {
		s.logins = newLoginLimiter(pairFree, pairBase, nil)
	}
	if s.addrLimit != nil {
		s.logins.addr = s.addrLimit
	}
	s.logins.setClock(func() time.Time { return s.now() })
	if err := s.loadTLS(); err != nil {
		return nil, err
	}
	for _, page := range pages {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+page)
		if err != nil {
			return nil, err
		}
		s.tmpl[page] = t
	}
	m, err := euromap.Europe()
	if err != nil {
		return nil, err
	}
	s.europe = m
	s.handler = s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	s.mux = mux
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.HandleFunc("GET /language", s.handleLanguage)
	mux.HandleFunc("GET /accessibility", s.handleAccessibility)
	mux.HandleFunc("GET /whatif", s.handleWhatIf)          // the What-if page (whatif.go)
	mux.HandleFunc("GET /whatif.csv", s.handleWhatIfCSV)   // one table of it
	mux.HandleFunc("GET /whatif.toml", s.handleWhatIfTOML) // scenario B's file
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET /openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(openAPI)
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/pool/"+itoa(s.DefaultCycle), http.StatusFound)
	})
	mux.HandleFunc("GET /pool/{year}", s.publicPage(s.handlePoolPath)) // and /pool/{year}.csv
	mux.HandleFunc("GET /pool/{year}/states/{state}", s.publicPage(s.handleStatePage))
	mux.HandleFunc("POST /pool/{year}/states/{state}/pledges", s.pages(s.handlePledgeForm))
	mux.HandleFunc("POST /pool/{year}/states/{state}/deliveries", s.pages(s.handleDeliveryForm))
	mux.HandleFunc("GET /ledger", s.pages(s.handleLedgerPage))
	mux.HandleFunc("GET /login", s.pages(s.handleLoginPage))
	mux.HandleFunc("POST /login", s.pages(s.handleLogin))
	mux.HandleFunc("POST /logout", s.pages(s.handleLogout))
	mux.HandleFunc("GET /arrivals", s.casePages(s.handleArrivalsPage))
	mux.HandleFunc("POST /arrivals", s.casePages(s.handleImportForm))
	mux.HandleFunc("GET /arrivals/{id}", s.casePages(s.handleArrivalPage))
	mux.HandleFunc("GET /cases/{id}", s.casePages(s.handleCasePage))
	mux.HandleFunc("POST /cases/{id}/person", s.casePages(s.handlePersonForm))
	mux.HandleFunc("POST /cases/{id}/determination", s.casePages(s.handleDetermineForm))
	mux.HandleFunc("POST /cases/{id}/events", s.casePages(s.handleEventForm))
	mux.HandleFunc("POST /cases/{id}/allocation", s.casePages(s.handleAllocationForm))
	mux.HandleFunc("GET /deadlines", s.casePages(s.handleDeadlinesPage))
	mux.HandleFunc("GET /deadlines.csv", s.casePages(s.handleDeadlinesCSV))
	mux.HandleFunc("POST /deadlines/apply", s.casePages(s.handleApplyForm))
	mux.HandleFunc("GET /access-log", s.casePages(s.handleAccessLogPage))
	mux.HandleFunc("GET /relocation", s.casePages(s.handleRelocationPage))
	mux.HandleFunc("POST /relocation/proposal", s.casePages(s.handleProposalForm))
	mux.HandleFunc("POST /relocation/accept", s.casePages(s.handleAcceptForm))

	mux.HandleFunc("GET /api/v1/cycles", s.handleCycles)
	mux.HandleFunc("GET /api/v1/cycles/{year}/pool", s.publicPage(s.handlePool))
	mux.HandleFunc("GET /api/v1/cycles/{year}/pool/states/{state}", s.handlePoolState)
	mux.HandleFunc("POST /api/v1/pool", s.handlePoolPost)
	mux.HandleFunc("POST /api/v1/simulations", s.handleSimulationPost)
	mux.HandleFunc("GET /api/v1/key", s.handleKey)
	mux.HandleFunc("GET /api/v1/datasets", s.handleDatasets)
	mux.HandleFunc("GET /api/v1/datasets/{id}", s.handleDataset)

	// The routes internal/client calls are its constants: one spelling for both ends.
	mux.HandleFunc("GET "+client.LedgerBalances, s.publicPage(s.api(s.handleBalances)))
	mux.HandleFunc("GET "+client.LedgerEntries, s.api(s.handleEntries))
	mux.HandleFunc("GET "+client.LedgerVerify, s.api(s.handleVerify))
	mux.HandleFunc("GET "+client.LedgerPublic, s.api(s.handlePublicLedger))
	mux.HandleFunc("POST "+client.LedgerCycles, s.authed(s.handleCreateCycle))
	mux.HandleFunc("PUT "+client.LedgerCycle, s.authed(s.handleAmendCycle))
	mux.HandleFunc("POST "+client.LedgerStatus, s.authed(s.handleStatus))
	mux.HandleFunc("POST "+client.LedgerPledge, s.authed(s.handlePledge))
	mux.HandleFunc("POST "+client.LedgerDeduction, s.authed(s.handleDeductionRequest))
	mux.HandleFunc("POST "+client.LedgerAssessment, s.authed(s.handleAssessment))
	mux.HandleFunc("POST "+client.LedgerDecision, s.authed(s.handleDecision))
	mux.HandleFunc("POST "+client.LedgerOffsetAsk, s.authed(s.handleOffsetRequest))
	mux.HandleFunc("POST "+client.LedgerOffsetOffer, s.authed(s.handleOffsetOffer))
	mux.HandleFunc("POST "+client.LedgerOffsetReply, s.authed(s.handleOffsetReply))
	mux.HandleFunc("POST "+client.LedgerDelivery, s.authed(s.handleDelivery))
	mux.HandleFunc("GET /api/v1/users", s.authed(s.handleUsers))
	mux.HandleFunc("POST /api/v1/users", s.authed(s.handleAddUser))
	mux.HandleFunc("POST /api/v1/tokens", s.authed(s.handleCreateToken))
	mux.HandleFunc("POST /api/v1/session", s.api(s.handleSessionCreate))
	mux.HandleFunc("DELETE /api/v1/session", s.api(s.handleSessionDelete))
	s.accountRoutes(mux)
	mux.HandleFunc("POST "+client.Arrivals, s.caseAPI(s.handleRegisterArrival))
	mux.HandleFunc("GET "+client.Arrivals, s.caseAPI(s.handleArrivals))
	mux.HandleFunc("GET "+client.Arrival, s.caseAPI(s.handleArrival))
	mux.HandleFunc("GET "+client.Cases, s.caseAPI(s.handleCases))
	mux.HandleFunc("GET "+client.Case, s.caseAPI(s.handleCase))
	mux.HandleFunc("GET "+client.CasePerson, s.caseAPI(s.handlePerson))
	mux.HandleFunc("GET "+client.CaseDetermination, s.caseAPI(s.handleDetermination))
	mux.HandleFunc("POST "+client.CaseEvents, s.caseAPI(s.handleCaseEvent))
	mux.HandleFunc("POST "+client.CaseAllocation, s.caseAPI(s.handleAllocation))
	mux.HandleFunc("GET "+client.Deadlines, s.caseAPI(s.handleDeadlines))
	mux.HandleFunc("POST "+client.DeadlinesApply, s.caseAPI(s.handleApplyMissed))
	mux.HandleFunc("GET /api/v1/access-log", s.caseAPI(s.handleAccessLog))
	mux.HandleFunc("POST /api/v1/relocation/proposal", s.caseAPI(s.handleProposal))
	mux.HandleFunc("POST /api/v1/relocation/proposal/accept", s.caseAPI(s.handleAcceptProposal))
	mux.HandleFunc("/api/", s.handleUnrouted)

	var h http.Handler = s.pageNotFound(mux)
	h = limitBodies(h)
	h = s.authenticate(h)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "cross-origin request refused"})
	}))
	h = cop.Handler(h)
	h = s.withBudget(h)
	h = securityHeaders(h)
	h = s.observe(h)
	return h
}

// pageNotFound answers a GET of a path no route serves, outside the API, with the
// error page in the reader's language rather than the mux's plain text; a path that
// some other method serves still gets the mux's 405 and Allow.
func (s *Server) pageNotFound(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || strings.HasPrefix(r.URL.Path, "/api/") {
			mux.ServeHTTP(w, r)
			return
		}
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		for _, m := range apiMethods[2:] { // POST, PUT, PATCH, DELETE
			r2 := r.Clone(r.Context())
			r2.Method = m
			if _, pattern := mux.Handler(r2); pattern != "" {
				mux.ServeHTTP(w, r) // another method's path: 405
				return
			}
		}
		s.pageError(w, r, solidarity.Errorf(solidarity.ENOTFOUND, "no page at %s", r.URL.Path))
	})
}

// securityHeaders sets a strict content security policy: no scripts at all, styles and
// images from this origin only.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// requestInfo is filled in by the inner handlers for the outer log line: the
// authentication middleware runs inside and sees a copy of the request.
type requestInfo struct {
	user *solidarity.User
}

type requestInfoKey struct{}

func info(r *http.Request) *requestInfo {
	if i, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		return i
	}
	return &requestInfo{}
}

// observe logs every request and counts it in the metrics, by the route pattern that
// serves it (never the raw path, whose values are unbounded). The log line holds the
// method, path, route, status, duration and user (name and role only): never a
// query string, a header, a cookie or a body, where secrets travel.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ri := &requestInfo{}
		r = r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, ri))
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		d := time.Since(start)
		_, route := s.mux.Handler(r)
		s.metrics.observe(route, sw.status, d)
		s.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.String("route", route), slog.Int("status", sw.status),
			slog.Duration("duration", d), slog.Any("user", ri.user))
	})
}

// handleReady is the readiness probe: the store answers and takes a write (ready.go;
// always ready without one).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if s.ledger != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.ready(ctx); err != nil {
			s.Logger.Warn("not ready", slog.Any("err", err))
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// ListenAndServe serves on addr until ctx is cancelled, then shuts down gracefully.
// ready, if not nil, receives the bound address once listening.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln, ready)
}

// Serve serves on ln, which it closes, until ctx ends, then shuts down gracefully.
// ready, if not nil, is called with the address once requests are accepted.
func (s *Server) Serve(ctx context.Context, ln net.Listener, ready func(net.Addr)) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	if s.tlsConfig != nil {
		srv.TLSConfig = s.tlsConfig.Clone()
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() {
		if srv.TLSConfig != nil {
			errc <- srv.ServeTLS(ln, "", "") // the certificate is in TLSConfig
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}

// maxBody caps request bodies; a ship's list may be larger (arrival.MaxBytes), so the
// two routes that take one get that, plus room for a multipart form's envelope.
const maxBody = 1 << 20

func limitBodies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int64(maxBody)
		if r.Method == http.MethodPost && (r.URL.Path == "/api/v1/arrivals" || r.URL.Path == "/arrivals") {
			n = arrival.MaxBytes + 64<<10
		}
		r.Body = http.MaxBytesReader(w, r.Body, n)
		h.ServeHTTP(w, r)
	})
}
