package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/web"
)

const serveHelp = `Usage: solidarity serve [--addr 127.0.0.1:8080] [--cycle YEAR] [--log text|json]

Serves the pool dashboard (table and map of Europe coloured by fair share, coverage or
pledge type), a page per state, the JSON API under /api/v1, the OpenAPI document at
/openapi.yaml and the health probe /healthz. Runs on embedded data: nothing to install.
`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", serveHelp, stdout, stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on")
	year := fs.Int("cycle", 2026, "the `year` the dashboard opens on")
	logFormat := fs.String("log", "text", "log `format`: text or json")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if !slices.Contains(cyclefile.Shipped(), *year) {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--cycle", Message: fmt.Sprintf("no shipped cycle %d (shipped: %v)", *year, cyclefile.Shipped())}
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
	// The server serves shipped data only: a request must never reach files on disk.
	srv, err := web.New(&catalog.Catalog{}, logger, *year)
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, *addr, func(a net.Addr) {
		logger.Info("serving", slog.String("url", "http://"+a.String()+"/"))
		if f := os.Getenv("SOLIDARITY_ADDR_FILE"); f != "" {
			// Lets tests that start the binary on :0 find the port.
			os.WriteFile(f, []byte(a.String()), 0o644)
		}
	})
}
