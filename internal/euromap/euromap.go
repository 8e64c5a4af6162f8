// Package euromap draws the map of Europe used by the web dashboard: Natural Earth
// country shapes (1:50m, vendored from the npm package world-atlas, see
// data/PROVENANCE.md) projected to ETRS89-LAEA (EPSG:3035) like Eurostat's maps,
// clipped to a mainland frame, lightly simplified and written as SVG path data.
//
// The frame spans eastings 2 400 000–7 400 000 m and northings 1 300 000–5 500 000 m.
// It holds the whole of continental EU territory with Ireland, Portugal, Malta,
// Crete, Cyprus and Lapland, and Iceland whole. Territory outside it is dropped: the
// Canaries, Madeira, the Azores and the overseas departments (French Guiana,
// Guadeloupe, Martinique, Réunion, Mayotte). Neighbours that reach out of it
// (Russia, Kazakhstan, Turkey's neighbours to the east, North Africa, Greenland) are
// clipped to it.
//
// Natural Earth's Åland Islands are drawn as part of Finland. Features without an
// ISO code (Kosovo, Northern Cyprus) are neighbours with an empty ISONumeric.
package euromap

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"solidarity"
)

//go:embed data/countries-50m.json
var countries50m []byte

// The frame in EPSG:3035 metres, and the size of one SVG user unit.
const (
	frameMinE = 2_400_000.0
	frameMaxE = 7_400_000.0
	frameMinN = 1_300_000.0
	frameMaxN = 5_500_000.0
	unit      = 1000.0 // metres per SVG user unit: coordinates are kilometres
)

// Simplification and clean-up thresholds.
const (
	// tolerance is the Douglas–Peucker tolerance in metres, applied once per shared
	// arc so that neighbours keep identical borders.
	tolerance = 1500.0
	// minRingArea drops rings (islets, enclaves) smaller than this many square
	// kilometres after rounding; a country's largest ring is always kept.
	minRingArea = 4.0
)

// The geographic window, in degrees, that encloses the frame with margin. Polygons
// whose exterior ring lies wholly outside it are not projected at all, which keeps
// the far side of the globe (and the projection's singular antipode) away.
const (
	windowMinLon, windowMaxLon = -60.0, 120.0
	windowMinLat, windowMaxLat = 10.0, 90.0
)

// Map is Europe ready to draw: an SVG viewBox and one path per country.
type Map struct {
	// ViewBox is the SVG viewBox attribute ("0 0 5000 4200"). User units are
	// kilometres in EPSG:3035 from the frame's north-west corner, x east, y south.
	ViewBox string
	// Width and Height are the viewBox size in user units.
	Width, Height int
	// Countries lists the non-member neighbours sorted by name, then the 27 Member
	// States in Eurostat's protocol order, so that drawing them in order paints
	// Member States (and their borders) over their neighbours.
	Countries []Country
}

// Country is one country's shape on the map.
type Country struct {
	// State is the Member State, or "" for a neighbour outside the EU.
	State solidarity.MemberState
	// ISONumeric is the three-digit ISO 3166-1 numeric code, or "" where Natural
	// Earth gives none (Kosovo, Northern Cyprus).
	ISONumeric string
	// Name is the English short name: solidarity's for Member States, Natural
	// Earth's otherwise.
	Name string
	// Path is SVG path data: for each ring an absolute M, then L commands, then Z,
	// with integer coordinates inside the viewBox. Holes wind opposite to their
	// exterior ring, so either fill rule draws them.
	Path string
	// Member reports whether the country is an EU Member State.
	Member bool
}

// europe builds the map once; the result is shared and never modified.
var europe = sync.OnceValues(build)

// Europe returns the map of Europe. The first call decodes and projects the embedded
// data (some tens of milliseconds); later calls return a copy of the cached result.
// It is safe for concurrent use, and callers may modify the returned Map.
func Europe() (*Map, error) {
	m, err := europe()
	if err != nil {
		return nil, err
	}
	c := *m
	c.Countries = slices.Clone(m.Countries)
	return &c, nil
}

// Member returns the shape of Member State s.
func (m *Map) Member(s solidarity.MemberState) (Country, bool) {
	for _, c := range m.Countries {
		if c.Member && c.State == s {
			return c, true
		}
	}
	return Country{}, false
}

// Point converts a WGS84/ETRS89 longitude and latitude in degrees to the map's SVG
// user units, for markers and labels. ok is false when the point falls outside the
// frame.
func (m *Map) Point(lon, lat float64) (x, y float64, ok bool) {
	x, y = toSVG(Project(lon, lat))
	ok = x >= 0 && y >= 0 && x <= float64(m.Width) && y <= float64(m.Height)
	return x, y, ok
}

// toSVG converts EPSG:3035 metres to SVG user units (kilometres from the frame's
// north-west corner, y pointing south).
func toSVG(e, n float64) (x, y float64) {
	return (e - frameMinE) / unit, (frameMaxN - n) / unit
}

func build() (*Map, error) {
	t, err := decodeTopology(countries50m)
	if err != nil {
		return nil, fmt.Errorf("euromap: %w", err)
	}
	return buildMap(t)
}

func buildMap(t *topology) (*Map, error) {
	features, ok := t.Objects["countries"]
	if !ok {
		return nil, errors.New("euromap: topology has no countries object")
	}
	w := int(math.Round((frameMaxE - frameMinE) / unit))
	h := int(math.Round((frameMaxN - frameMinN) / unit))
	m := &Map{ViewBox: fmt.Sprintf("0 0 %d %d", w, h), Width: w, Height: h}

	// Select the polygons near Europe and the arcs they need.
	arcBox := make([]bbox, len(t.Arcs))
	for i, arc := range t.Arcs {
		arcBox[i] = boundsOf(arc)
	}
	window := bbox{windowMinLon, windowMinLat, windowMaxLon, windowMaxLat}
	needed := make([]bool, len(t.Arcs))
	keep := make([][]bool, len(features))
	for fi, f := range features {
		keep[fi] = make([]bool, len(f.Polygons))
		for pi, poly := range f.Polygons {
			b := emptyBox()
			for _, a := range poly[0] {
				b = b.union(arcBox[arcIndex(a)])
			}
			if !b.intersects(window) {
				continue
			}
			keep[fi][pi] = true
			for _, r := range poly {
				for _, a := range r {
					needed[arcIndex(a)] = true
				}
			}
		}
	}

	// Project and simplify each needed arc once, so shared borders stay shared.
	arcs := make([][]point, len(t.Arcs))
	for i, arc := range t.Arcs {
		if !needed[i] {
			continue
		}
		p := make([]point, len(arc))
		for j, ll := range arc {
			e, n := Project(ll.X, ll.Y)
			p[j] = point{e, n}
		}
		p = simplify(p, tolerance)
		for j := range p {
			p[j].X, p[j].Y = toSVG(p[j].X, p[j].Y)
		}
		arcs[i] = p
	}

	members := make(map[string]solidarity.MemberState)
	for _, s := range solidarity.MemberStates() {
		members[s.ISONumeric()] = s
	}
	frame := bbox{0, 0, float64(w), float64(h)}
	var neighbours []Country
	byState := make(map[solidarity.MemberState][][]ipoint)
	parts := make(map[string][][]ipoint)
	for fi, f := range features {
		var rings [][]ipoint
		for pi, poly := range f.Polygons {
			if !keep[fi][pi] {
				continue
			}
			for ri, r := range poly {
				pts := cleanRing(clipRing(ring(arcs, r), frame))
				if len(pts) < 3 {
					if ri == 0 {
						break // the exterior is gone, and with it the holes
					}
					continue
				}
				rings = append(rings, pts)
			}
		}
		rings = dropSmall(rings)
		if len(rings) == 0 {
			continue
		}
		if whole, ok := partOf[f.ID]; ok {
			parts[whole] = append(parts[whole], rings...)
			continue
		}
		s, member := members[f.ID]
		if !member {
			neighbours = append(neighbours, Country{ISONumeric: f.ID, Name: f.Name, Path: pathData(rings)})
			continue
		}
		if _, dup := byState[s]; dup {
			return nil, fmt.Errorf("euromap: Member State %s (%s) appears twice", s, f.ID)
		}
		byState[s] = rings
	}
	slices.SortStableFunc(neighbours, func(a, b Country) int {
		return strings.Compare(a.Name+"\x00"+a.ISONumeric, b.Name+"\x00"+b.ISONumeric)
	})
	m.Countries = neighbours
	for _, s := range solidarity.MemberStates() {
		rings, ok := byState[s]
		if !ok {
			return nil, fmt.Errorf("euromap: Member State %s (%s) has no shape in the frame", s, s.ISONumeric())
		}
		rings = append(rings, parts[s.ISONumeric()]...)
		m.Countries = append(m.Countries, Country{
			State: s, ISONumeric: s.ISONumeric(), Name: s.Name(), Path: pathData(rings), Member: true,
		})
	}
	return m, nil
}

// partOf maps Natural Earth features that are part of a Member State to that
// State's ISO numeric code. Natural Earth draws the Åland Islands (248), an
// autonomous region of Finland inside the EU, as a country of their own.
var partOf = map[string]string{"248": "246"}

// bbox is an axis-aligned box.
type bbox struct{ MinX, MinY, MaxX, MaxY float64 }

func emptyBox() bbox {
	return bbox{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
}

func boundsOf(pts []point) bbox {
	b := emptyBox()
	for _, p := range pts {
		b.MinX, b.MaxX = min(b.MinX, p.X), max(b.MaxX, p.X)
		b.MinY, b.MaxY = min(b.MinY, p.Y), max(b.MaxY, p.Y)
	}
	return b
}

func (b bbox) union(o bbox) bbox {
	return bbox{min(b.MinX, o.MinX), min(b.MinY, o.MinY), max(b.MaxX, o.MaxX), max(b.MaxY, o.MaxY)}
}

func (b bbox) intersects(o bbox) bool {
	return b.MinX <= o.MaxX && o.MinX <= b.MaxX && b.MinY <= o.MaxY && o.MinY <= b.MaxY
}

// simplify applies Douglas–Peucker to a polyline, always keeping both ends (arc ends
// are where borders meet). A closed arc (an island) is split at its farthest point
// from the start so that it keeps some area.
func simplify(pts []point, tol float64) []point {
	if len(pts) <= 2 {
		return pts
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	type span struct{ i, j int }
	stack := []span{{0, len(pts) - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		far, dmax := -1, tol
		for k := s.i + 1; k < s.j; k++ {
			if d := segmentDistance(pts[k], pts[s.i], pts[s.j]); d > dmax {
				far, dmax = k, d
			}
		}
		if far < 0 {
			continue
		}
		keep[far] = true
		stack = append(stack, span{s.i, far}, span{far, s.j})
	}
	out := pts[:0:0]
	for k, p := range pts {
		if keep[k] {
			out = append(out, p)
		}
	}
	return out
}

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return math.Hypot(p.X-a.X, p.Y-a.Y)
	}
	t := ((p.X-a.X)*dx + (p.Y-a.Y)*dy) / l2
	t = max(0, min(1, t))
	return math.Hypot(p.X-(a.X+t*dx), p.Y-(a.Y+t*dy))
}

// clipRing clips a closed ring (its last point may repeat the first) to box b with
// the Sutherland–Hodgman algorithm. Parts outside become runs along b's edges, which
// is right for filling.
func clipRing(pts []point, b bbox) []point {
	if n := len(pts); n > 1 && pts[0] == pts[n-1] {
		pts = pts[:n-1]
	}
	if r := boundsOf(pts); r.MinX >= b.MinX && r.MaxX <= b.MaxX && r.MinY >= b.MinY && r.MaxY <= b.MaxY {
		return pts
	}
	edges := []struct {
		inside func(point) bool
		cross  func(p, q point) point
	}{
		{func(p point) bool { return p.X >= b.MinX }, func(p, q point) point { return atX(p, q, b.MinX) }},
		{func(p point) bool { return p.X <= b.MaxX }, func(p, q point) point { return atX(p, q, b.MaxX) }},
		{func(p point) bool { return p.Y >= b.MinY }, func(p, q point) point { return atY(p, q, b.MinY) }},
		{func(p point) bool { return p.Y <= b.MaxY }, func(p, q point) point { return atY(p, q, b.MaxY) }},
	}
	out := pts
	for _, e := range edges {
		if len(out) == 0 {
			break
		}
		in := out
		out = make([]point, 0, len(in)+4)
		prev := in[len(in)-1]
		for _, cur := range in {
			switch ci, pi := e.inside(cur), e.inside(prev); {
			case ci && pi:
				out = append(out, cur)
			case ci && !pi:
				out = append(out, e.cross(prev, cur), cur)
			case !ci && pi:
				out = append(out, e.cross(prev, cur))
			}
			prev = cur
		}
	}
	return out
}

// atX and atY return where segment pq crosses a vertical or horizontal line. The
// result does not depend on the segment's direction, so two neighbours sharing a
// border clip it at the same point.
func atX(p, q point, x float64) point {
	if q.X < p.X || (q.X == p.X && q.Y < p.Y) {
		p, q = q, p
	}
	return point{x, p.Y + (q.Y-p.Y)*(x-p.X)/(q.X-p.X)}
}

func atY(p, q point, y float64) point {
	if q.Y < p.Y || (q.Y == p.Y && q.X < p.X) {
		p, q = q, p
	}
	return point{p.X + (q.X-p.X)*(y-p.Y)/(q.Y-p.Y), y}
}

// ipoint is a position rounded to whole SVG user units.
type ipoint struct{ X, Y int64 }

// cleanRing rounds a ring to integers and removes repeated and collinear points
// (including the runs that clipping lays along the frame). The result is open: its
// last point differs from its first.
func cleanRing(pts []point) []ipoint {
	out := make([]ipoint, 0, len(pts))
	for _, p := range pts {
		q := ipoint{int64(math.Round(p.X)), int64(math.Round(p.Y))}
		out = append(out, q)
		// Pop the middle of any straight (or doubling-back) triple.
		for len(out) >= 2 && out[len(out)-1] == out[len(out)-2] {
			out = out[:len(out)-1]
		}
		for len(out) >= 3 && cross(out[len(out)-3], out[len(out)-2], out[len(out)-1]) == 0 {
			out = append(out[:len(out)-2], out[len(out)-1])
		}
	}
	// The same across the seam between the last and the first point.
	for changed := true; changed && len(out) >= 3; {
		changed = false
		n := len(out)
		switch {
		case out[n-1] == out[0]:
			out, changed = out[:n-1], true
		case cross(out[n-2], out[n-1], out[0]) == 0:
			out, changed = out[:n-1], true
		case cross(out[n-1], out[0], out[1]) == 0:
			out, changed = out[1:], true
		}
	}
	if len(out) < 3 || area2(out) == 0 {
		return nil
	}
	return out
}

// cross is the z component of (b-a)×(c-b); zero when a, b and c are collinear.
func cross(a, b, c ipoint) int64 {
	return (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
}

// area2 is twice the signed area of a ring (shoelace formula).
func area2(r []ipoint) int64 {
	var s int64
	for i, p := range r {
		q := r[(i+1)%len(r)]
		s += p.X*q.Y - q.X*p.Y
	}
	return s
}

// dropSmall removes rings smaller than minRingArea, keeping at least the largest so
// that a small country still appears.
func dropSmall(rings [][]ipoint) [][]ipoint {
	if len(rings) == 0 {
		return nil
	}
	largest, largestArea := 0, int64(-1)
	for i, r := range rings {
		if a := abs(area2(r)); a > largestArea {
			largest, largestArea = i, a
		}
	}
	out := rings[:0:0]
	for i, r := range rings {
		if i == largest || float64(abs(area2(r))) >= 2*minRingArea {
			out = append(out, r)
		}
	}
	return out
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// pathData writes rings as SVG path data: "M x y L x y … Z" per ring.
func pathData(rings [][]ipoint) string {
	var b []byte
	for _, r := range rings {
		for i, p := range r {
			if i == 0 {
				b = append(b, 'M')
			} else {
				b = append(b, 'L')
			}
			b = strconv.AppendInt(b, p.X, 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, p.Y, 10)
		}
		b = append(b, 'Z')
	}
	return string(b)
}
