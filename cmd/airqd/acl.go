package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// MAC access lists, as hostapd reads them: macaddr_acl=0 admits every
// station not in deny_mac_file, 1 only those in accept_mac_file; a station
// in the accept list is admitted in either mode. Each file holds one MAC
// address a line; a line starting with '#' and a blank line are skipped,
// and "-MAC" removes an address listed before it (in this file or an
// earlier one of the same key: like hostapd, repeated keys add to the
// list). hostapd's VLAN id after the address is refused: airq has no
// per-station VLANs.

// aclLists are the lists the file builds, applied to the core at the end.
type aclLists struct {
	mode         ap.ACLMode
	accept, deny map[ieee80211.MAC]struct{}
}

// acl is the core's value; the maps are built once here and never written
// after.
func (l *aclLists) acl() ap.ACL {
	return ap.ACL{Mode: l.mode, Accept: l.accept, Deny: l.deny}
}

// saysWhy is a setter's error that replaces the key's accepted values in
// the message: what is wrong in an access list file, say.
type saysWhy struct{ error }

// setACLMode is macaddr_acl's setter.
func setACLMode(o *options, v string) error {
	switch v {
	case "0":
		o.acl.mode = ap.ACLAcceptUnlessDenied
	case "1":
		o.acl.mode = ap.ACLDenyUnlessAccepted
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

// reloadACL applies the new lists and the new default airtime weight on the
// core's loop when they differ from the running ones. Stations the new lists
// refuse are deauthenticated, as hostapd disconnects a station its deny list
// gains (and as its own reload does to every station).
func (r *reloader) reloadACL(ctx context.Context, next *options) error {
	cur := r.cur.core.ACL
	nacl, weight := next.core.ACL, next.core.AirtimeWeight
	aclChanged := cur.Mode != nacl.Mode || !maps.Equal(cur.Accept, nacl.Accept) || !maps.Equal(cur.Deny, nacl.Deny)
	weightChanged := weight != r.cur.core.AirtimeWeight
	if !aclChanged && !weightChanged {
		return nil
	}
	// fn may run after ctx ends; it writes only these, read on success.
	var (
		removed []ieee80211.MAC
		setErr  error
	)
	err := r.srv.Inspect(ctx, func(core *ap.AP, control func(ctl.Request) ctl.Reply) {
		if weightChanged {
			core.SetDefaultAirtimeWeight(weight)
		}
		if !aclChanged {
			return
		}
		gone, err := core.SetACL(nacl)
		if err != nil {
			setErr = err
			return
		}
		for _, m := range gone {
			if rep := control(ctl.Request{Op: ctl.OpStationDel, Addr: m}); rep.Err() == nil {
				removed = append(removed, m)
			}
		}
	})
	if err == nil {
		err = setErr
	}
	if err != nil {
		return fmt.Errorf("access lists and airtime_weight: %w", err)
	}
	if weightChanged {
		r.cur.core.AirtimeWeight = weight
		r.log.Info("reload: applied (stations associating from now on)", "airtime_weight", weight)
	}
	if aclChanged {
		r.cur.core.ACL = nacl
		r.log.Info("reload: applied", "macaddr_acl", int(nacl.Mode), "accept", len(nacl.Accept), "deny", len(nacl.Deny))
		for _, m := range removed {
			r.log.Info("reload: deauthenticated a station the access lists now refuse", "sta", m)
		}
	}
	return nil
}

// freqChannel maps -freq to the channel, for a 2.4 or 5 GHz channel's centre
// frequency.
func freqChannel(freq int) (int, error) {
	ch := ieee80211.FreqToChannel(freq)
	band := ieee80211.Band2GHz
	if freq > 3000 {
		band = ieee80211.Band5GHz
	}
	if ch == 0 || freq > 5900 || ieee80211.ChannelToFreq(ch, band) != freq {
		return 0, fmt.Errorf("-freq: %d MHz is not a 2.4 GHz (2412-2484) or 5 GHz (5180-5885) channel's centre frequency", freq)
	}
	return ch, nil
}
