package main

import (
	"context"
	"io"
	"strings"

	"solidarity"
	"solidarity/internal/app"
)

// runOffset is a responsibility offset (Art. 63): a benefitting state's request or a
// contributing state's offer, and the reply to one.
var runOffset = writeGroup("offset", map[string]command{
	"request": offsetOpen("request"),
	"offer":   offsetOpen("offer"),
	"reply":   runOffsetReply,
})

func offsetOpen(sub string) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs, w := newWrite("offset "+sub, true, stdout, stderr)
		state := stateFlag(fs, "state", "Member `state` (Eurostat code)")
		counterpart := fs.String("counterpart", "", "the other `state`")
		apps := fs.Int64("applications", 0, "number of `applications`")
		if err := parse(fs, args, false); err != nil {
			return err
		}
		if err := w.needYear(); err != nil {
			return err
		}
		m := state()
		p := solidarity.OffsetPayload{Counterpart: solidarity.MemberState(strings.ToUpper(*counterpart)), Applications: *apps}
		return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
			if sub == "request" {
				return l.RequestOffset(ctx, w.year, m, p, w.key)
			}
			return l.OfferOffset(ctx, w.year, m, p, w.key)
		})
	}
}

func runOffsetReply(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("offset reply", true, stdout, stderr)
	ref := fs.String("ref", "", "the request `ref`")
	accepted := fs.Int64("accepted", 0, "applications `accepted`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	p := solidarity.ReplyPayload{Accepted: *accepted}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.ReplyOffset(ctx, w.year, *ref, p, w.key)
	})
}
