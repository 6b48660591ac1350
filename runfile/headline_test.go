package runfile

import "testing"

func TestRelative(t *testing.T) {
	for _, tc := range []struct {
		x, y float64
		want string
	}{
		{0.5, 1, "50.0% better than b"}, {1.2, 1, "20.0% worse than b"}, {1, 1, "equal to b"},
		{0.20119, 0.2012, "within 0.05% of b"}, {1, 0, "not comparable with b"},
	} {
		if got := relative(tc.x, tc.y, "b"); got != tc.want {
			t.Errorf("relative(%v, %v) = %q, want %q", tc.x, tc.y, got, tc.want)
		}
	}
}
