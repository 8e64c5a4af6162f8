package euromap_test

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/euromap"
)

func MustEurope(tb testing.TB) *euromap.Map {
	tb.Helper()
	m, err := euromap.Europe()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestProject checks EPSG:3035 against reference coordinates: the projection
// centre, the worked example of IOGP Guidance Note 7-2 (§3.2.3.2, 50°N 5°E), and
// points computed independently with PROJ 9.1.1
// (`cs2cs -f %.3f EPSG:4326 EPSG:3035`, which prints northing then easting).
func TestProject(t *testing.T) {
	tests := []struct {
		name     string
		lon, lat float64
		e, n     float64
	}{
		{"centre", 10, 52, 4321000, 3210000},
		{"IOGP 7-2 example", 5, 50, 3962799.45, 2999718.85},
		{"Cyprus (PROJ)", 33, 35, 6408292.722, 1641973.192},
		{"Lapland (PROJ)", 27.9, 70.09, 5001027.615, 5306417.759},
		{"Cape St Vincent (PROJ)", -9, 37, 2635188.437, 1757925.811},
		{"Urals (PROJ)", 60, 65, 6456716.384, 5472983.339},
		{"Atlantic (PROJ)", -10, 40, 2626483.082, 2103594.617},
	}
	for _, tt := range tests {
		e, n := euromap.Project(tt.lon, tt.lat)
		if math.Abs(e-tt.e) > 0.01 || math.Abs(n-tt.n) > 0.01 {
			t.Errorf("%s: Project(%g, %g) = (%.3f, %.3f), want (%.3f, %.3f)", tt.name, tt.lon, tt.lat, e, n, tt.e, tt.n)
		}
	}
}

func TestDecodeTopology(t *testing.T) {
	// Two squares sharing the edge x=1, quantized with scale 0.5 and translate
	// (10, 20); arc 0 is the shared edge, delta-encoded.
	doc := `{"type":"Topology",
	  "transform":{"scale":[0.5,0.5],"translate":[10,20]},
	  "arcs":[[[2,0],[0,2]], [[2,2],[-2,0],[0,-2],[2,0]], [[2,0],[2,0],[0,2],[-2,0]]],
	  "objects":{"o":{"type":"GeometryCollection","geometries":[
	    {"type":"Polygon","id":"001","arcs":[[0,1]]},
	    {"type":"MultiPolygon","arcs":[[[-1,2]]]},
	    {"type":null}
	  ]}}}`
	rings, ids, err := euromap.DecodeRings([]byte(doc), "o")
	if err != nil {
		t.Fatal(err)
	}
	want := [][][][2]float64{
		{{{11, 20}, {11, 21}, {10, 21}, {10, 20}, {11, 20}}},
		{{{11, 21}, {11, 20}, {12, 20}, {12, 21}, {11, 21}}},
		nil,
	}
	if !reflect.DeepEqual(rings, want) {
		t.Errorf("rings = %v, want %v", rings, want)
	}
	if !reflect.DeepEqual(ids, []string{"001", "", ""}) {
		t.Errorf("ids = %q", ids)
	}
	for _, bad := range []string{
		`{"type":"FeatureCollection"}`,
		`{"type":"Topology","arcs":[],"objects":{"o":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]]}]}}}`,
		`{"type":"Topology","arcs":[[[0,0],[1,1]]],"objects":{"o":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[-2]]}]}}}`,
		`{"type":"Topology","arcs":[],"objects":{"o":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]}]}}}`,
	} {
		if _, _, err := euromap.DecodeRings([]byte(bad), "o"); err == nil {
			t.Errorf("decoding %s: no error", bad)
		}
	}
}

func TestMemberStates(t *testing.T) {
	m := MustEurope(t)
	seen := make(map[solidarity.MemberState]int)
	for _, c := range m.Countries {
		if c.Member != (c.State != "") {
			t.Errorf("%s: Member=%v but State=%q", c.Name, c.Member, c.State)
		}
		if c.Member {
			seen[c.State]++
			if c.ISONumeric != c.State.ISONumeric() || c.Name != c.State.Name() {
				t.Errorf("%s: ISONumeric %q, Name %q", c.State, c.ISONumeric, c.Name)
			}
		}
		if c.Path == "" {
			t.Errorf("%s: empty path", c.Name)
		}
	}
	for _, s := range solidarity.MemberStates() {
		if seen[s] != 1 {
			t.Errorf("%s appears %d times, want once", s, seen[s])
		}
		if c, ok := m.Member(s); !ok || c.Path == "" {
			t.Errorf("Member(%s) = %v, %v", s, c, ok)
		}
	}
	if len(seen) != 27 {
		t.Errorf("%d Member States, want 27", len(seen))
	}
}

func TestNeighbours(t *testing.T) {
	m := MustEurope(t)
	names := make(map[string]bool)
	for _, c := range m.Countries {
		if !c.Member {
			names[c.Name] = true
		}
	}
	for _, n := range []string{"United Kingdom", "Norway", "Switzerland", "Serbia", "Kosovo",
		"N. Cyprus", "Turkey", "Ukraine", "Belarus", "Russia", "Morocco", "Algeria", "Tunisia"} {
		if !names[n] {
			t.Errorf("neighbour %q missing", n)
		}
	}
	for _, n := range []string{"United States of America", "Brazil", "Japan"} {
		if names[n] {
			t.Errorf("far country %q present", n)
		}
	}
}

// TestPaths parses every path: M starts each ring, then only L and Z, with integer
// coordinates inside the viewBox.
func TestPaths(t *testing.T) {
	m := MustEurope(t)
	if m.ViewBox != fmt.Sprintf("0 0 %d %d", m.Width, m.Height) {
		t.Fatalf("ViewBox %q, Width %d, Height %d", m.ViewBox, m.Width, m.Height)
	}
	total := 0
	for _, c := range m.Countries {
		total += len(c.Path)
		if _, err := parsePath(c.Path, m.Width, m.Height); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	t.Logf("%d countries, %d bytes of path data", len(m.Countries), total)
	if total > 150_000 {
		t.Errorf("%d bytes of path data, want at most 150 000", total)
	}
}

// parsePath parses path data made of rings "M x y L x y … Z" with integer
// coordinates inside a w×h viewBox, and returns the rings.
func parsePath(d string, w, h int) ([][][2]int, error) {
	if !strings.HasPrefix(d, "M") {
		return nil, fmt.Errorf("path starts with %.10q", d)
	}
	var rings [][][2]int
	i := 0
	for i < len(d) {
		cmd := d[i]
		i++
		switch cmd {
		case 'Z':
			if len(rings[len(rings)-1]) < 3 {
				return nil, fmt.Errorf("offset %d: ring of %d points", i, len(rings[len(rings)-1]))
			}
			if i < len(d) && d[i] != 'M' {
				return nil, fmt.Errorf("offset %d: %q after Z", i, d[i])
			}
			continue
		case 'M':
			rings = append(rings, nil)
		case 'L':
		default:
			return nil, fmt.Errorf("offset %d: command %q", i-1, cmd)
		}
		var xy [2]int
		for k := range xy {
			j := i
			for j < len(d) && (d[j] == '-' || d[j] >= '0' && d[j] <= '9') {
				j++
			}
			v, err := strconv.Atoi(d[i:j])
			if err != nil {
				return nil, fmt.Errorf("offset %d: %v", i, err)
			}
			xy[k] = v
			i = j
			if k == 0 {
				if i >= len(d) || d[i] != ' ' {
					return nil, fmt.Errorf("offset %d: want a space", i)
				}
				i++
			}
		}
		if xy[0] < 0 || xy[0] > w || xy[1] < 0 || xy[1] > h {
			return nil, fmt.Errorf("point %v outside the viewBox", xy)
		}
		rings[len(rings)-1] = append(rings[len(rings)-1], xy)
	}
	if !strings.HasSuffix(d, "Z") {
		return nil, fmt.Errorf("%d rings, unclosed end", len(rings))
	}
	return rings, nil
}

// inside reports whether (x, y) lies inside rings under the even-odd rule.
func inside(rings [][][2]int, x, y float64) bool {
	in := false
	for _, r := range rings {
		for i, p := range r {
			q := r[(i+1)%len(r)]
			px, py, qx, qy := float64(p[0]), float64(p[1]), float64(q[0]), float64(q[1])
			if (py > y) != (qy > y) && x < px+(y-py)*(qx-px)/(qy-py) {
				in = !in
			}
		}
	}
	return in
}

// TestInland checks that an inland town of each Member State falls inside that
// State's shape and no other: projection, arc assembly and the ISO join agree.
func TestInland(t *testing.T) {
	towns := map[solidarity.MemberState][2]float64{
		"BE": {4.35, 50.85}, "BG": {23.32, 42.70}, "CZ": {14.42, 50.09}, "DK": {9.2, 56.2},
		"DE": {13.40, 52.52}, "EE": {25.56, 58.89}, "IE": {-7.94, 53.42}, "EL": {22.42, 39.64},
		"ES": {-3.70, 40.42}, "FR": {2.35, 48.86}, "HR": {15.98, 45.81}, "IT": {12.50, 41.90},
		"CY": {32.87, 34.92}, "LV": {26.22, 56.85}, "LT": {23.9, 54.9}, "LU": {6.13, 49.61},
		"HU": {19.04, 47.50}, "MT": {14.42, 35.89}, "NL": {5.12, 52.09}, "AT": {16.37, 48.21},
		"PL": {21.01, 52.23}, "PT": {-7.91, 38.57}, "RO": {26.10, 44.43}, "SI": {14.51, 46.06},
		"SK": {19.15, 48.74}, "FI": {23.76, 61.50}, "SE": {15.21, 59.27},
	}
	m := MustEurope(t)
	shapes := make(map[string][][][2]int)
	for _, c := range m.Countries {
		rings, err := parsePath(c.Path, m.Width, m.Height)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		shapes[c.Name] = rings
	}
	check := func(town [2]float64, want string) {
		t.Helper()
		x, y, ok := m.Point(town[0], town[1])
		if !ok {
			t.Errorf("%v (%s) outside the frame", town, want)
			return
		}
		for name, rings := range shapes {
			if got := inside(rings, x, y); got != (name == want) {
				t.Errorf("%v inside %s = %v, want it only inside %s", town, name, got, want)
			}
		}
	}
	for s, town := range towns {
		check(town, s.Name())
	}
	check([2]float64{19.95, 60.25}, "Finland") // Åland, drawn as part of Finland
	check([2]float64{-1.5, 52.5}, "United Kingdom")
	check([2]float64{8.2, 46.8}, "Switzerland")
}

// TestOrientation checks that the map is north up and not mirrored: Lisbon is west
// of Helsinki, Helsinki north of Valletta.
func TestOrientation(t *testing.T) {
	m := MustEurope(t)
	lx, _, ok1 := m.Point(-9.14, 38.72)
	hx, hy, ok2 := m.Point(24.94, 60.17)
	_, vy, ok3 := m.Point(14.51, 35.9)
	if !ok1 || !ok2 || !ok3 {
		t.Fatal("a capital falls outside the frame")
	}
	if lx >= hx || hy >= vy {
		t.Errorf("Lisbon x %.0f, Helsinki (%.0f, %.0f), Valletta y %.0f", lx, hx, hy, vy)
	}
	if _, _, ok := m.Point(-15.4, 28.1); ok {
		t.Error("Las Palmas inside the frame")
	}
}

func TestDeterministic(t *testing.T) {
	a, err := euromap.Build()
	if err != nil {
		t.Fatal(err)
	}
	b, err := euromap.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two builds differ")
	}
	c, d := MustEurope(t), MustEurope(t)
	if !reflect.DeepEqual(c, d) || !reflect.DeepEqual(a, c) {
		t.Error("cached maps differ")
	}
	c.Countries[0].Path = ""
	if e := MustEurope(t); e.Countries[0].Path == "" {
		t.Error("modifying a returned map changed the cache")
	}
}

// TestWriteSVG writes the map to the file named by EUROMAP_SVG, for a look.
func TestWriteSVG(t *testing.T) {
	name := os.Getenv("EUROMAP_SVG")
	if name == "" {
		t.Skip("EUROMAP_SVG not set")
	}
	m := MustEurope(t)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s" width="1000" height="%d">`+"\n",
		m.ViewBox, 1000*m.Height/m.Width)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#dbe9f4"/>`+"\n", m.Width, m.Height)
	for _, c := range m.Countries {
		fill := "#e4e4e4"
		if c.Member {
			fill = "#7aa6d6"
		}
		fmt.Fprintf(&b, `<path d="%s" fill="%s" stroke="#555" stroke-width="1.5"><title>%s</title></path>`+"\n", c.Path, fill, c.Name)
	}
	b.WriteString("</svg>\n")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkEurope(b *testing.B) {
	for b.Loop() {
		if _, err := euromap.Build(); err != nil {
			b.Fatal(err)
		}
	}
}
