package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"solidarity"
	"solidarity/internal/casesvc"
)

// The client is the deadline service of the root package, as casesvc is on a store.
var _ solidarity.DeadlineService[casesvc.DueRow, casesvc.Consequence, casesvc.Confirmed] = (*Client)(nil)

// Deadlines implements solidarity.DeadlineService.
func (c *Client) Deadlines(ctx context.Context, within time.Duration, state *solidarity.MemberState, limit int) ([]casesvc.DueRow, error) {
	q := url.Values{}
	if within > 0 {
		q.Set("within", within.String())
	}
	if state != nil {
		q.Set("state", string(*state))
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out struct {
		Deadlines []casesvc.DueRow `json:"deadlines"`
	}
	path := Deadlines
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	if _, err := c.do(ctx, http.MethodGet, path, nil, "", &out); err != nil {
		return nil, err
	}
	return out.Deadlines, nil
}

// consequences is the answer of the apply route.
type consequences struct {
	Consequences []casesvc.Consequence `json:"consequences"`
}

// PreviewMissed implements solidarity.DeadlineService: a dry run of the apply route.
func (c *Client) PreviewMissed(ctx context.Context) ([]casesvc.Consequence, error) {
	var out consequences
	_, err := c.do(ctx, http.MethodPost, DeadlinesApply+"?dry_run=true", nil, "", &out)
	return out.Consequences, err
}

// ApplyConfirmed implements solidarity.DeadlineService.
func (c *Client) ApplyConfirmed(ctx context.Context, confirmed []casesvc.Confirmed) ([]casesvc.Consequence, error) {
	if confirmed == nil {
		confirmed = []casesvc.Confirmed{} // nothing confirmed is not "all" (a body without confirm)
	}
	var out consequences
	body := struct {
		Confirm []casesvc.Confirmed `json:"confirm"`
	}{confirmed}
	_, err := c.do(ctx, http.MethodPost, DeadlinesApply, body, "", &out)
	return out.Consequences, err
}
