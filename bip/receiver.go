package bip

// Receiver holds a station's IGTKs, one per key ID (4 and 5), with the
// last IPN accepted under each, as mac80211 keeps a receive IPN per key.
// The zero value holds no key.
type Receiver struct {
	keys [2]*Key
	last [2]uint64
}

// Install puts k (not nil) under its key ID, replacing the key there,
// with ipn the last IPN its sender used (the IGTK KDE's, ActInstallIGTK's
// RSC): frames at or below it are refused as replays.
func (r *Receiver) Install(k *Key, ipn uint64) {
	i := k.id - FirstKeyID
	r.keys[i], r.last[i] = k, ipn
}

// Key returns the key installed under id, or nil.
func (r *Receiver) Key(id uint16) *Key {
	if id < FirstKeyID || id > LastKeyID {
		return nil
	}
	return r.keys[id-FirstKeyID]
}

// LastIPN returns the last IPN accepted under key ID id.
func (r *Receiver) LastIPN(id uint16) uint64 {
	if id < FirstKeyID || id > LastKeyID {
		return 0
	}
	return r.last[id-FirstKeyID]
}

// Open verifies a BIP-protected group-addressed management frame in the
// order mac80211 does: the MME, the key its Key ID names, the IPN strictly
// above the last accepted under that key, the MIC; only then it records
// the IPN. It returns the body without the MME, a slice of frame. A frame
// refused for any reason changes nothing.
func (r *Receiver) Open(frame []byte) ([]byte, error) {
	m, err := parse(frame)
	if err != nil {
		return nil, err
	}
	k := r.Key(m.KeyID)
	if k == nil {
		return nil, ErrNoKey
	}
	i := m.KeyID - FirstKeyID
	if m.IPN <= r.last[i] {
		return nil, ErrReplay
	}
	ipn, body, err := k.Verify(frame)
	if err != nil {
		return nil, err
	}
	r.last[i] = ipn
	return body, nil
}
