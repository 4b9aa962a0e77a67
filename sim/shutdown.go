package sim

import "time"

// shutdownAir is how long Shutdown lets the medium carry the AP's last
// frames: a deauthentication per station and a broadcast one, each a
// short management frame at a basic rate, with room for retries.
const shutdownAir = 50 * time.Millisecond

// Shutdown stops the AP as airqd's SIGTERM stops it on a real radio
// (ap.AP.Shutdown: each station deauthenticated, then a broadcast
// deauthentication) and runs the medium until those frames have reached
// the stations. The simulation is over afterwards.
func (s *Sim) Shutdown() {
	s.core.Shutdown(s.now)
	s.drainCore()
	s.Run(shutdownAir)
}
