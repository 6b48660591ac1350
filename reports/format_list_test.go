package reports

import (
	"slices"
	"testing"
)

func TestParseFormats(t *testing.T) {
	got, err := ParseFormats(" PNG, svg ,pdf")
	if err != nil || !slices.Equal(got, []string{"png", "svg", "pdf"}) {
		t.Fatalf("ParseFormats = %q, %v", got, err)
	}
	for _, bad := range []string{"", "png,", "jpeg", "png,,svg"} {
		if _, err := ParseFormats(bad); err == nil {
			t.Errorf("ParseFormats(%q): no error", bad)
		}
	}
	_, err = ParseFormats("png,gif")
	if want := `format "gif": want a comma-separated list of png, svg, pdf`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
