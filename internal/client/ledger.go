package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"solidarity"
	"solidarity/internal/cyclefile"
	"solidarity/internal/report"
	"solidarity/ledger"
)

// The client is the ledger of the root package's interfaces, as ledgersvc is on a
// store.
var (
	_ solidarity.LedgerService                                        = (*Client)(nil)
	_ solidarity.LedgerReader[*report.Balances, *ledger.Verification] = (*Client)(nil)
)

// write sends one ledger write and returns the entry the server recorded.
func (c *Client) write(ctx context.Context, method, path string, body any, idemKey string) (*solidarity.Entry, bool, error) {
	var e solidarity.Entry
	replayed, err := c.do(ctx, method, path, body, idemKey, &e)
	if err != nil {
		return nil, false, err
	}
	return &e, replayed, nil
}

func year(y int) string { return strconv.Itoa(y) }

// CreateCycle implements solidarity.LedgerService.
func (c *Client) CreateCycle(ctx context.Context, file, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, LedgerCycles, toml(file), idemKey)
}

// AmendCycle implements solidarity.LedgerService: the route names the year, read
// from the file.
func (c *Client) AmendCycle(ctx context.Context, file, idemKey string) (*solidarity.Entry, bool, error) {
	cy, err := cyclefile.Parse("cycle file", []byte(file))
	if err != nil {
		return nil, false, err
	}
	return c.write(ctx, http.MethodPut, Path(LedgerCycle, year(cy.Year)), toml(file), idemKey)
}

// SetStatus implements solidarity.LedgerService.
func (c *Client) SetStatus(ctx context.Context, y int, m solidarity.MemberState, p solidarity.StatusPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerStatus, year(y), string(m)), p, idemKey)
}

// Pledge implements solidarity.LedgerService.
func (c *Client) Pledge(ctx context.Context, y int, m solidarity.MemberState, p solidarity.PledgePayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerPledge, year(y), string(m)), p, idemKey)
}

// RequestDeduction implements solidarity.LedgerService.
func (c *Client) RequestDeduction(ctx context.Context, y int, m solidarity.MemberState, p solidarity.DeductionPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerDeduction, year(y), string(m)), p, idemKey)
}

// AssessDeduction implements solidarity.LedgerService.
func (c *Client) AssessDeduction(ctx context.Context, y int, ref string, p solidarity.AssessmentPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerAssessment, year(y), ref), p, idemKey)
}

// DecideDeduction implements solidarity.LedgerService.
func (c *Client) DecideDeduction(ctx context.Context, y int, ref string, p solidarity.DeductionPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerDecision, year(y), ref), p, idemKey)
}

// RequestOffset implements solidarity.LedgerService.
func (c *Client) RequestOffset(ctx context.Context, y int, m solidarity.MemberState, p solidarity.OffsetPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerOffsetAsk, year(y), string(m)), p, idemKey)
}

// OfferOffset implements solidarity.LedgerService.
func (c *Client) OfferOffset(ctx context.Context, y int, m solidarity.MemberState, p solidarity.OffsetPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerOffsetOffer, year(y), string(m)), p, idemKey)
}

// ReplyOffset implements solidarity.LedgerService.
func (c *Client) ReplyOffset(ctx context.Context, y int, ref string, p solidarity.ReplyPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerOffsetReply, year(y), ref), p, idemKey)
}

// delivery is the body of a delivery: its type beside what was delivered.
type delivery struct {
	Type solidarity.EntryType `json:"type"`
	solidarity.DeliveryPayload
}

// Deliver implements solidarity.LedgerService.
func (c *Client) Deliver(ctx context.Context, y int, m solidarity.MemberState, t solidarity.EntryType, p solidarity.DeliveryPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return c.write(ctx, http.MethodPost, Path(LedgerDelivery, year(y), string(m)), delivery{t, p}, idemKey)
}

// Entries implements solidarity.LedgerService: one page of the entry listing, every
// field of the filter sent (the server's after and before are the filter's keys).
func (c *Client) Entries(ctx context.Context, f solidarity.EntryFilter) ([]*solidarity.Entry, error) {
	q := url.Values{}
	q.Set("after", strconv.FormatInt(f.AfterSeq, 10))
	if f.BeforeSeq > 0 {
		q.Set("before", strconv.FormatInt(f.BeforeSeq, 10))
	}
	if f.Newest {
		q.Set("order", "newest")
	}
	if f.Ref != "" {
		q.Set("ref", f.Ref)
	}
	// Instants, not days: the server reads an RFC 3339 from as included and to as not,
	// as the filter means them.
	if !f.From.IsZero() {
		q.Set("from", f.From.UTC().Format(time.RFC3339Nano))
	}
	if !f.To.IsZero() {
		q.Set("to", f.To.UTC().Format(time.RFC3339Nano))
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	if f.Cycle != nil {
		q.Set("cycle", year(*f.Cycle))
	}
	if f.State != nil {
		q.Set("state", string(*f.State))
	}
	if f.Type != nil {
		q.Set("type", string(*f.Type))
	}
	var page struct {
		Entries []*solidarity.Entry `json:"entries"`
	}
	if _, err := c.do(ctx, http.MethodGet, LedgerEntries+"?"+q.Encode(), nil, "", &page); err != nil {
		return nil, err
	}
	return page.Entries, nil
}

// Balances implements solidarity.LedgerReader with the balances as the server
// publishes them (report.Balances: the exact figures rendered once, by the server);
// asOf travels as an exact RFC 3339 time, so that the server computes as of the same
// instant.
func (c *Client) Balances(ctx context.Context, y int, asOf time.Time) (*report.Balances, error) {
	path := Path(LedgerBalances, year(y))
	if !asOf.IsZero() {
		path += "?as_of=" + url.QueryEscape(asOf.Format(time.RFC3339Nano))
	}
	var b report.Balances
	if _, err := c.do(ctx, http.MethodGet, path, nil, "", &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Verify implements solidarity.LedgerReader: the full verification. The server
// answers anyone who may not verify with the public summary (chain_ok, no problem
// named); that is not a verification of the whole chain and is refused here as the
// service refuses it.
func (c *Client) Verify(ctx context.Context) (*ledger.Verification, error) {
	var v struct {
		ledger.Verification
		ChainOK *bool `json:"chain_ok"` // only in the public summary
	}
	if _, err := c.do(ctx, http.MethodGet, LedgerVerify, nil, "", &v); err != nil {
		return nil, err
	}
	if v.ChainOK != nil {
		const summary = " (the server answered the public summary; verify its download offline with ledger verify --file)"
		if c.Token == "" {
			return nil, &solidarity.Error{Code: solidarity.EUNAUTHENTICATED,
				Message: "authentication required: the full verification is for auditors and the coordinator" + summary}
		}
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: " + string(solidarity.VerifyLedger) + summary}
	}
	return &v.Verification, nil
}
