package sim

import "github.com/airq/airq/ap"

// SetAirtime changes the core's airtime policy live at the current
// virtual time, as airqctl and a reload do, and routes what it released.
func (s *Sim) SetAirtime(c ap.Airtime) error {
	err := s.core.SetAirtime(s.now, c)
	s.drainCore()
	return err
}
