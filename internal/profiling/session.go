package profiling

import (
	"errors"
	"fmt"
)

// Session is the profiles one command asks for: a CPU profile of the
// whole command written to CPUPath, and a heap profile of what is live
// when it ends written to HeapPath ("" = none). Errors name the path's
// source as CPUName and HeapName (for a command line, its flags).
type Session struct {
	CPUPath, HeapPath string
	CPUName, HeapName string
	cpu               *CPU
}

// Start starts the CPU profile if one is asked for.
func (s *Session) Start() error {
	if s.CPUPath == "" {
		return nil
	}
	p, err := StartCPU()
	if err != nil {
		return fmt.Errorf("%s: %w", s.CPUName, err)
	}
	s.cpu = p
	return nil
}

// Stop stops the CPU profile, if Start started one, and writes the
// profiles asked for; it reports every failure.
func (s *Session) Stop() error {
	var errs []error
	if s.cpu != nil {
		p := s.cpu
		s.cpu = nil
		if err := p.Stop(s.CPUPath); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.CPUName, err))
		}
	}
	if s.HeapPath != "" {
		if err := WriteHeap(s.HeapPath); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.HeapName, err))
		}
	}
	return errors.Join(errs...)
}
