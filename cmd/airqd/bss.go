package main

import (
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// checkBSSNames checks the bss= sections' names against the system's
// network interfaces and airqd's control sockets.
func (o *options) checkBSSNames() error {
	return asError(o.conf.CheckNames(&o.Settings, new(systemNetdevs), o.Control, o.Global))
}

// asError is ps as an error, nil for none.
func asError(ps config.Problems) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// systemNetdevs are the system's network interfaces, listed once, less
// the TAPs this process holds open: on a reload (SIGHUP, hostapd's SET)
// the running BSSes' own TAPs exist, and a section naming its TAP again
// is not in their way.
type systemNetdevs struct {
	names map[string]bool
	err   error
	// fdinfo is this process's descriptors' fdinfo (/proc/self/fdinfo
	// when nil), where the kernel names a TUN/TAP descriptor's interface
	// ("iff:").
	fdinfo fs.FS
}

func (n *systemNetdevs) Exists(name string) (bool, error) {
	if n.names == nil && n.err == nil {
		n.names = map[string]bool{}
		var ifs []net.Interface
		ifs, n.err = net.Interfaces()
		for _, i := range ifs {
			n.names[i.Name] = true
		}
		if n.fdinfo == nil {
			n.fdinfo = os.DirFS("/proc/self/fdinfo")
		}
		for tap := range heldTAPs(n.fdinfo) {
			delete(n.names, tap)
		}
	}
	return n.names[name], n.err
}

// heldTAPs are the interfaces of the TUN/TAP descriptors in fdinfo; none
// where it cannot be read (another OS).
func heldTAPs(fdinfo fs.FS) map[string]bool {
	held := map[string]bool{}
	fds, _ := fs.ReadDir(fdinfo, ".")
	for _, fd := range fds {
		b, err := fs.ReadFile(fdinfo, fd.Name())
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if tap, ok := strings.CutPrefix(l, "iff:"); ok {
				held[strings.TrimSpace(tap)] = true
			}
		}
	}
	return held
}

// wiredSides are the wired sides of the radio's BSSes, in order, for the
// shell to open: each BSS's TAP (the first's from -tap or tap=, a bss=
// section's named after it unless its tap= says otherwise) joined to its
// bridge=, with the radio's offload.
func (o *options) wiredSides(offload tap.Offload) []shell.WiredSide {
	var sides []shell.WiredSide
	for _, b := range o.AllBSSes() {
		sides = append(sides, shell.WiredSide{BSS: b.Name, TAP: b.Settings.Tap, Bridge: b.Settings.Bridge, Offload: offload})
	}
	return sides
}

// logBSSes logs the radio's BSSes after the first, each with the
// interface that holds its BSSID for the hardware's ACKs (none on the
// simulated radio, which ACKs every BSSID).
func logBSSes(log *slog.Logger, cfg ap.Config, holders []nl80211.Interface) {
	for i, b := range cfg.BSSes {
		holder := "none (simulated radio)"
		if i < len(holders) {
			holder = holders[i].Name
		}
		log.Info("bss", "name", b.Name, "ssid", b.SSID, "bssid", b.BSSID.String(), "ack_holder", holder)
	}
}
