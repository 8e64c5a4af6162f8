package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"runtime"
	"strconv"

	"solidarity"
	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// MaxAPIRuns bounds the runs of one POST /api/v1/simulations: 10 000 runs of a year
// take about a quarter of a second on two cores (BENCHMARKS.md), well inside the
// request's budget; simulation.MaxRuns, for the command line, is ten times more.
const MaxAPIRuns = 10_000

// Defaults of a simulation request whose file names no runs or seed (as the command
// line's `solidarity simulate`).
const (
	defaultRuns = 1000
	defaultSeed = 1
)

// SimulationRequest is the JSON body of POST /api/v1/simulations: a scenario file's
// text, and the runs and seed, which override the file's.
type SimulationRequest struct {
	Scenario string  `json:"scenario"`
	Runs     *int    `json:"runs"`
	Seed     *uint64 `json:"seed"`
}

// handleSimulationPost runs the scenario file sent (issue 15): as JSON
// (SimulationRequest) or as the file itself (application/toml or text/plain, the runs
// and seed then in the query). Like POST /api/v1/pool it reads shipped data only:
// the file's base and datasets are shipped names, never a path on the server. The
// work stops with the request's budget or when the client goes away (the context),
// and nothing is answered then but the budget's 503.
func (s *Server) handleSimulationPost(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			// 413, not the 400 of a bad body: the client sent too much, and may
			// send less (RFC 9110, 15.5.14).
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]APIError{"error": {Code: solidarity.EINVALID,
				Message: "request body larger than 1 MiB", File: "request body"}})
			return
		}
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read request body"})
		return
	}
	req, file, err := simulationRequest(r, bytes.TrimPrefix(body, []byte("\ufeff")))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	// Parse bounds the file (internal/bound: depth, values, lengths) before it decodes
	// it, and reads no file of the server (no directory).
	sc, err := scenariofile.Parse(file, []byte(req.Scenario), nil)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	runs, seed := sc.Runs, sc.Seed
	if runs == 0 {
		runs = defaultRuns
	}
	if seed == 0 {
		seed = defaultSeed
	}
	if req.Runs != nil {
		runs = *req.Runs
	}
	if req.Seed != nil {
		seed = *req.Seed
	}
	if runs < 0 || runs > MaxAPIRuns {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "runs",
			Message: "runs " + strconv.Itoa(runs) + " out of range; want 0 (the expected run alone) to " + strconv.Itoa(MaxAPIRuns)})
		return
	}
	res, err := runGated(r.Context(), sc, runs, seed)
	if r.Context().Err() != nil {
		return // over the budget (its 503 is written) or the client has gone
	}
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// simulationRequest reads the request from its body and query: the scenario's text,
// the name its errors give as their file, and the runs and seed asked for.
func simulationRequest(r *http.Request, body []byte) (SimulationRequest, string, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil && r.Header.Get("Content-Type") != "" {
		return SimulationRequest{}, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "Content-Type", Message: "malformed Content-Type"}
	}
	var req SimulationRequest
	switch mt {
	case "application/json":
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := decodeJSON(r, &req); err != nil {
			return req, "", err
		}
		if req.Scenario == "" {
			return req, "", &solidarity.Error{Code: solidarity.EINVALID, File: "request body", Field: "scenario", Message: "no scenario: want the scenario file's text"}
		}
		// The query's runs and seed are for a file sent as it is; in JSON they are
		// fields of the body.
		if q := r.URL.Query(); q.Has("runs") || q.Has("seed") {
			return req, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "runs", Message: "with a JSON body, runs and seed are fields of the body, not of the query"}
		}
		return req, "scenario", nil
	case "application/toml", "text/plain", "":
		req.Scenario = string(body)
		q := r.URL.Query()
		if v := q.Get("runs"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return req, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "runs", Message: strconv.Quote(short(v)) + " is not a whole number"}
			}
			req.Runs = &n
		}
		if v := q.Get("seed"); v != "" {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return req, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "seed", Message: strconv.Quote(short(v)) + " is not a whole number from 0 to 18446744073709551615"}
			}
			req.Seed = &n
		}
		return req, "request body", nil
	}
	return req, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "Content-Type",
		Message: "Content-Type " + strconv.Quote(mt) + ": want application/json, application/toml or text/plain"}
}

// simGate lets as many simulations run at once as there are cores: each already uses
// every core, and each holds its runs' figures until the bands are taken (about 90 MB
// for 10 000 runs of 120 months), so more at once would only share the cores and add
// up the memory. A request waits for a slot within its budget, then gets the budget's
// 503.
var simGate = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// runGated runs a simulation once a slot is free, or returns the context's error.
func runGated(ctx context.Context, sc *simulation.Scenario, runs int, seed uint64) (*simulation.Result, error) {
	select {
	case simGate <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-simGate }()
	return simulation.Run(ctx, sc, runs, seed)
}
