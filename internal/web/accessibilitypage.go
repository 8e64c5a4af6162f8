package web

import (
	"net/http"
	"time"
)

// The dates of the accessibility statement: when it was prepared and last reviewed
// against the pages (Decision (EU) 2018/1523, Annex: "Preparation of this
// accessibility statement"). Review it, and move statementReviewed, whenever the
// pages or the tests behind it change what it says.
var (
	statementPrepared = time.Date(2026, time.December, 2, 0, 0, 0, 0, time.UTC)
	statementReviewed = time.Date(2026, time.December, 2, 0, 0, 0, 0, time.UTC)
)

type accessibilityPage struct {
	base
	Prepared, Reviewed time.Time
	Contact            string // the operator's contact for feedback (WithAccessibilityContact)
}

// WithAccessibilityContact sets the contact the accessibility statement gives for
// feedback (Directive (EU) 2016/2102, Art. 7(1)(b)): an e-mail address or a web
// address of the body that runs the server.
func WithAccessibilityContact(c string) Option { return func(s *Server) { s.a11yContact = c } }

// handleAccessibility shows the accessibility statement (Directive (EU) 2016/2102,
// Art. 7; the model of Commission Implementing Decision (EU) 2018/1523).
func (s *Server) handleAccessibility(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "accessibility.html", accessibilityPage{base: s.base(r, "Accessibility statement"),
		Prepared: statementPrepared, Reviewed: statementReviewed, Contact: s.a11yContact})
}
