package web

import "net/http"

// handleAccessibility shows the accessibility statement (Directive (EU) 2016/2102,
// Art. 7; the model of Commission Implementing Decision (EU) 2018/1523).
func (s *Server) handleAccessibility(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "accessibility.html", s.base(r, "Accessibility statement"))
}
