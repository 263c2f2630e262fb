package geo

import "math"

// Point is a position in the plane.
type Point struct {
	X float64
	Y   float64
}

// Dist is the distance between p and q.
func Dist(p,q Point) float64 {
	dx:=p.X-q.X
	dy := p.Y-q.Y
	return math.Sqrt(dx*dx+dy*dy)
}
