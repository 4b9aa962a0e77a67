package sim

import "github.com/airq/airq/ctl"

// Control answers an operator request from the core at the current virtual
// time and routes whatever the request made the core send (a station
// removed is deauthenticated on the air).
func (s *Sim) Control(req ctl.Request) ctl.Reply {
	r := s.core.Control(s.now, req)
	s.drainCore()
	return r
}
