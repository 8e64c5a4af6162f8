// Package web serves solidarity over HTTP: the pool dashboard and state pages (HTML
// from embedded templates, no JavaScript needed), the JSON API under /api/v1, the
// OpenAPI document at /openapi.yaml, and the health probe /healthz.
package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/euromap"
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
	Catalog *catalog.Catalog
	Logger  *slog.Logger
	// DefaultCycle is the year the dashboard opens on.
	DefaultCycle int

	tmpl    map[string]*template.Template
	europe  *euromap.Map
	handler http.Handler
}

// New parses every template and builds the map once, so that a broken template or map
// fails the start, not a user's click.
func New(cat *catalog.Catalog, logger *slog.Logger, defaultCycle int) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{Catalog: cat, Logger: logger, DefaultCycle: defaultCycle, tmpl: map[string]*template.Template{}}
	for _, page := range []string{"pool.html", "state.html", "error.html"} {
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
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(openAPI)
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/pool/"+itoa(s.DefaultCycle), http.StatusFound)
	})
	mux.HandleFunc("GET /pool/{year}", s.handlePoolPage)
	mux.HandleFunc("GET /pool/{year}/states/{state}", s.handleStatePage)

	mux.HandleFunc("GET /api/v1/cycles", s.handleCycles)
	mux.HandleFunc("GET /api/v1/cycles/{year}/pool", s.handlePool)
	mux.HandleFunc("GET /api/v1/cycles/{year}/pool/states/{state}", s.handlePoolState)
	mux.HandleFunc("POST /api/v1/pool", s.handlePoolPost)
	mux.HandleFunc("GET /api/v1/key", s.handleKey)
	mux.HandleFunc("GET /api/v1/datasets", s.handleDatasets)
	mux.HandleFunc("GET /api/v1/datasets/{id}", s.handleDataset)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.ENOTFOUND, Message: "no such API endpoint: " + r.Method + " " + r.URL.Path})
	})

	var h http.Handler = mux
	h = http.MaxBytesHandler(h, 1<<20)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "cross-origin request refused"})
	}))
	h = cop.Handler(h)
	h = securityHeaders(h)
	h = s.logRequests(h)
	return h
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

func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		s.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.Int("status", sw.status), slog.Duration("duration", time.Since(start)))
	})
}

// HTTPStatus maps an error code to an HTTP status.
func HTTPStatus(code string) int {
	switch code {
	case solidarity.EINVALID:
		return http.StatusBadRequest
	case solidarity.ENOTFOUND:
		return http.StatusNotFound
	case solidarity.ECONFLICT:
		return http.StatusConflict
	case solidarity.EUNAUTHORIZED:
		return http.StatusForbidden
	case solidarity.EUNAUTHENTICATED:
		return http.StatusUnauthorized
	}
	return http.StatusInternalServerError
}

// APIError is the JSON body of every API error.
type APIError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Path    string `json:"path,omitempty"`
	Field   string `json:"field,omitempty"`
	Article string `json:"article,omitempty"`
}

func (s *Server) apiError(w http.ResponseWriter, r *http.Request, err error) {
	code := solidarity.ErrorCode(err)
	body := APIError{Code: code, Message: solidarity.ErrorMessage(err)}
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		body.Message, body.File, body.Line, body.Path, body.Field, body.Article = e.Message, e.File, e.Line, e.Path, e.Field, e.Article
	}
	if code == solidarity.EINTERNAL {
		s.Logger.Error("internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	writeJSON(w, HTTPStatus(code), map[string]APIError{"error": body})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// ListenAndServe serves on addr until ctx is cancelled, then shuts down gracefully.
// ready, if not nil, receives the bound address once listening.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}
