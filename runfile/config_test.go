package runfile

import (
	"path/filepath"
	"testing"
)

func TestConfigBytes(t *testing.T) {
	dir := t.TempDir()
	if b, err := ReadConfig(dir); b != nil || err != nil {
		t.Fatalf("absent: %q, %v", b, err)
	}
	if err := WriteConfig(dir, []byte("seed: 3\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadConfig(dir); string(b) != "seed: 3\n" || err != nil {
		t.Fatalf("read back %q, %v", b, err)
	}
	if ConfigPath(dir) != filepath.Join(dir, "config.yaml") {
		t.Error(ConfigPath(dir))
	}
}
