package sim

// Config.Capture is called with every frame that crosses the AP's radio
// seam, the frames a capture of airqd's real radio (-pcap) holds: each
// frame the core hands the radio (airq's radiotap TX header + 802.11) and
// each one the core reads (received frames with mac80211's RX header,
// TX-status echoes with mac80211's TX-status header), at the virtual time
// it happens, from the first beacon on. It must not keep frame. Frames the
// radio sends by itself (a one-trip scan's probes) never reach the core
// and are not shown.

// captured passes b to the capture, if any.
func (s *Sim) captured(b []byte) {
	if s.cfg.Capture != nil {
		s.cfg.Capture(s.now, b)
	}
}
