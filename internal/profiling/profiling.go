package profiling

import (
	"bytes"
	"runtime"
	"runtime/pprof"

	"github.com/evogp/evogp/internal/atomicio"
)

// CPU is a running CPU profile. Only one can run at a time in a process
// (runtime/pprof's rule).
type CPU struct {
	buf bytes.Buffer
}

// StartCPU starts profiling the process's CPU use into memory.
func StartCPU() (*CPU, error) {
	p := new(CPU)
	if err := pprof.StartCPUProfile(&p.buf); err != nil {
		return nil, err
	}
	return p, nil
}

// Stop ends the profile and writes it atomically to path.
func (p *CPU) Stop(path string) error {
	pprof.StopCPUProfile()
	return atomicio.WriteBytes(path, p.buf.Bytes())
}

// WriteHeap writes a heap profile of what is live now, after a garbage
// collection, atomically to path.
func WriteHeap(path string) error {
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return err
	}
	return atomicio.WriteBytes(path, buf.Bytes())
}
