package sim

import "github.com/airq/airq/ctl"

// Control answers an operator request from the core at the current virtual
// time and routes whatever the request made the core send (a station
// removed is deauthenticated on the air). A survey dump first brings the
// core the radio's figures of the channel it is on, as airqd's loop reads
// the driver's survey.
func (s *Sim) Control(req ctl.Request) ctl.Reply {
	if req.Op == ctl.OpSurveyDump {
		s.surveyReport()
	}
	r := s.core.Control(s.now, req)
	s.drainCore()
	return r
}
