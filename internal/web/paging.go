package web

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
)

// Every list of the API pages the same way: ?limit= (1 to the list's most), and
// ?cursor= the next_cursor of the page before. A cursor is opaque to clients: the
// base64url text of "<list>:<key>", the list's name keeping a cursor of one list
// from being taken by another, the key being where the next page starts (a sequence
// number, a case ID). A client never makes one; a cursor that does not decode is a
// 400 naming the field "cursor".

// maxCursor bounds a cursor before it is decoded: longer than any key makes.
const maxCursor = 200

// encodeCursor returns the cursor of list continuing after key.
func encodeCursor(list, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(list + ":" + key))
}

// badCursor is the error of a cursor that is not one of list's.
func badCursor(list string) error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: "cursor",
		Message: fmt.Sprintf("cursor is not a next_cursor of %s: pass the one the last page gave", list)}
}

// decodeCursor returns the key of a cursor of list, or EINVALID naming "cursor".
func decodeCursor(list, c string) (string, error) {
	if len(c) > maxCursor {
		return "", badCursor(list)
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", badCursor(list)
	}
	key, ok := strings.CutPrefix(string(b), list+":")
	if !ok || key == "" {
		return "", badCursor(list)
	}
	return key, nil
}

// seqCursor returns the sequence number of a cursor of list (a number ≥ 1).
func seqCursor(list, c string) (int64, error) {
	key, err := decodeCursor(list, c)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(key, 10, 64)
	if err != nil || n < 1 {
		return 0, badCursor(list)
	}
	return n, nil
}

// seqCursorText returns the cursor of list continuing after seq.
func seqCursorText(list string, seq int64) string {
	return encodeCursor(list, strconv.FormatInt(seq, 10))
}

// dayLayout is how a query gives a day: the from and to of the lists' time ranges.
const dayLayout = "2006-01-02"

// queryDays reads ?from= and ?to=: UTC days (YYYY-MM-DD), both included, or RFC 3339
// instants, from included and to not. A range [From, To) results; an empty one leaves
// that side open; anything else is EINVALID naming it.
func queryDays(r *http.Request) (from, to time.Time, err error) {
	q := r.URL.Query()
	at := func(field string, end bool) (time.Time, error) {
		v := q.Get(field)
		if v == "" {
			return time.Time{}, nil
		}
		bad := &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: field + " must be a day, YYYY-MM-DD, or an RFC 3339 time"}
		if len(v) > len(time.RFC3339Nano)+6 {
			return time.Time{}, bad
		}
		if d, err := time.Parse(dayLayout, v); err == nil {
			if end {
				d = d.AddDate(0, 0, 1) // to the end of the day
			}
			return d, nil
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil || t.Year() < 1 || t.Year() > 9999 {
			return time.Time{}, bad
		}
		return t.UTC(), nil
	}
	if from, err = at("from", false); err != nil {
		return
	}
	if to, err = at("to", true); err != nil {
		return
	}
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return from, to, &solidarity.Error{Code: solidarity.EINVALID, Field: "from", Message: "from must be before to"}
	}
	return from, to, nil
}

// pageSlice pages a short list the service returns whole (users, tokens): sorted by
// key, the rows after the cursor's key, at most ?limit= (1 to 1000, default 100), the
// cursor of the next page (nil on the last) and the list's length as its total.
func pageSlice[T any](r *http.Request, list string, items []T, key func(T) string) ([]T, *string, int, error) {
	limit, err := queryLimit(r, solidarity.DefaultPageLimit, solidarity.MaxPageLimit)
	if err != nil {
		return nil, nil, 0, err
	}
	slices.SortFunc(items, func(a, b T) int { return strings.Compare(key(a), key(b)) })
	start := 0
	if c := r.URL.Query().Get("cursor"); c != "" {
		after, err := decodeCursor(list, c)
		if err != nil {
			return nil, nil, 0, err
		}
		start, _ = slices.BinarySearchFunc(items, after, func(it T, k string) int {
			if c := strings.Compare(key(it), k); c != 0 {
				return c
			}
			return -1 // the cursor's own row is on the page before
		})
	}
	page := items[start:min(start+limit, len(items))]
	var next *string
	if start+len(page) < len(items) {
		c := encodeCursor(list, key(page[len(page)-1]))
		next = &c
	}
	return page, next, len(items), nil
}
