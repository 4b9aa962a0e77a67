package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// MAC access lists, as hostapd reads them: macaddr_acl=0 admits every
// station not in deny_mac_file, 1 only those in accept_mac_file; a station
// in the accept list is admitted in either mode. Each file holds one MAC
// address a line; a line starting with '#' and a blank line are skipped,
// and "-MAC" removes an address listed before it (in this file or an
// earlier one of the same key: like hostapd, repeated keys add to the
// list). hostapd's VLAN id after the address is refused: airq has no
// per-station VLANs. The lists land in Settings.Core.ACL, whose maps are
// built here and never written after.

// setACLMode is macaddr_acl's setter.
func setACLMode(s *Settings, v string) error {
	switch v {
	case "0":
		s.Core.ACL.Mode = bss.ACLAcceptUnlessDenied
	case "1":
		s.Core.ACL.Mode = bss.ACLDenyUnlessAccepted
	case "2":
		return saysWhy{fmt.Errorf("2 (RADIUS) is not supported; want 0 (accept unless in deny_mac_file) or 1 (deny unless in accept_mac_file)")}
	default:
		return errWant
	}
	return nil
}

// readMACFile adds the file's addresses to *set (removing the "-MAC"
// ones). Errors name the file, the line and the entry.
func readMACFile(set *map[ieee80211.MAC]struct{}, path string) error {
	if path == "" {
		return errWant
	}
	data, err := readSmallFile(path)
	if err != nil {
		return saysWhy{err}
	}
	if *set == nil {
		*set = map[ieee80211.MAC]struct{}{}
	}
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSpace(string(raw))
		if line == "" || line[0] == '#' {
			continue
		}
		remove := false
		if rest, ok := strings.CutPrefix(line, "-"); ok {
			remove, line = true, strings.TrimLeft(rest, " \t")
		}
		entry, vlan, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		mac, err := ieee80211.ParseMAC(entry)
		switch {
		case err != nil || mac.IsMulticast() || mac.IsZero():
			return saysWhy{fmt.Errorf("%s:%d: %q is not a station's MAC address like 02:00:00:00:01:00", path, n+1, clip(entry))}
		case strings.TrimSpace(vlan) != "" && !remove:
			return saysWhy{fmt.Errorf("%s:%d: %s %s: a VLAN id after the address is not supported (airq has no per-station VLANs)", path, n+1, entry, clip(strings.TrimSpace(vlan)))}
		case strings.TrimSpace(vlan) != "":
			return saysWhy{fmt.Errorf("%s:%d: -%s %s: unexpected text after the address", path, n+1, entry, clip(strings.TrimSpace(vlan)))}
		case remove:
			delete(*set, mac)
		default:
			(*set)[mac] = struct{}{}
		}
	}
	return nil
}

// maxMACFile bounds an access list file: 16 MiB is some 900,000 addresses.
const maxMACFile = 16 << 20

// readSmallFile reads a regular file of at most maxMACFile bytes, so a
// mistaken path (a device, a FIFO) fails instead of blocking the reload.
func readSmallFile(path string) ([]byte, error) {
	fi, err := os.Stat(path) // before opening: opening a FIFO blocks
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > maxMACFile {
		return nil, fmt.Errorf("%s: %d bytes, want at most %d", path, fi.Size(), maxMACFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxMACFile+1))
}
