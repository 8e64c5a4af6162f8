package euromap

import "math"

// GRS80 ellipsoid and the EPSG:3035 (ETRS89-extended / LAEA Europe) parameters.
const (
	grs80A     = 6378137.0
	grs80InvF  = 298.257222101
	laeaLat0   = 52.0 // latitude of natural origin, degrees
	laeaLon0   = 10.0 // longitude of natural origin, degrees
	laeaFalseE = 4321000.0
	laeaFalseN = 3210000.0
)

// laea holds the constants of the Lambert Azimuthal Equal Area projection on the
// ellipsoid, derived once from the EPSG:3035 parameters.
type laea struct {
	e, e2        float64 // eccentricity and its square
	qp           float64 // q at the pole
	rq           float64 // radius of the authalic sphere
	d            float64 // scale correction so the origin is conformal
	sinB0, cosB0 float64 // authalic latitude of the origin
	lon0, fe, fn float64
}

var epsg3035 = newLAEA(grs80A, 1/grs80InvF, laeaLat0, laeaLon0, laeaFalseE, laeaFalseN)

func newLAEA(a, f, lat0, lon0, fe, fn float64) laea {
	e2 := 2*f - f*f
	p := laea{e: math.Sqrt(e2), e2: e2, lon0: lon0 * math.Pi / 180, fe: fe, fn: fn}
	p.qp = p.q(1)
	phi0 := lat0 * math.Pi / 180
	sinPhi0 := math.Sin(phi0)
	b0 := math.Asin(p.q(sinPhi0) / p.qp)
	p.sinB0, p.cosB0 = math.Sincos(b0)
	p.rq = a * math.Sqrt(p.qp/2)
	p.d = a * (math.Cos(phi0) / math.Sqrt(1-e2*sinPhi0*sinPhi0)) / (p.rq * p.cosB0)
	return p
}

// q is the authalic function of IOGP Guidance Note 7-2 §3.2.3.2 (Snyder eq. 3-12)
// for a latitude given by its sine.
func (p laea) q(sinPhi float64) float64 {
	es := p.e * sinPhi
	return (1 - p.e2) * (sinPhi/(1-es*es) - 1/(2*p.e)*math.Log((1-es)/(1+es)))
}

// forward projects geodetic longitude and latitude in degrees to easting and
// northing in metres (IOGP 7-2 §3.2.3.2, oblique aspect).
func (p laea) forward(lon, lat float64) (easting, northing float64) {
	phi := lat * math.Pi / 180
	dl := lon*math.Pi/180 - p.lon0
	beta := math.Asin(math.Max(-1, math.Min(1, p.q(math.Sin(phi))/p.qp)))
	sinB, cosB := math.Sincos(beta)
	sinDl, cosDl := math.Sincos(dl)
	b := p.rq * math.Sqrt(2/(1+p.sinB0*sinB+p.cosB0*cosB*cosDl))
	easting = p.fe + b*p.d*cosB*sinDl
	northing = p.fn + (b/p.d)*(p.cosB0*sinB-p.sinB0*cosB*cosDl)
	return easting, northing
}

// Project converts a WGS84/ETRS89 position in decimal degrees to EPSG:3035
// (ETRS89-extended / LAEA Europe) easting and northing in metres: Lambert Azimuthal
// Equal Area on the GRS80 ellipsoid centred on 52°N 10°E with false easting
// 4 321 000 m and false northing 3 210 000 m, as used by Eurostat maps. The result is
// not finite at the antipode of the centre (52°S 170°W).
func Project(lon, lat float64) (easting, northing float64) {
	return epsg3035.forward(lon, lat)
}
