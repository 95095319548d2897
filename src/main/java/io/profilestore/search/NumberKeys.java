package io.profilestore.search;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys that phone numbers, document numbers and e-mail addresses are hashed with before they reach the index:
 * the index holds {@code HMAC-SHA256(key, kind, value)} of each, never the value, so an exact search still works (the
 * search hashes what it is given the same way) while a dump of the index, or anyone who reads it directly, learns no
 * number. Without the key, a hash cannot be tried against the few billion possible phone numbers, which a plain hash
 * could.
 *
 * <p>Several keys are a rotation under way: a document is indexed with a hash under every key, and a search asks for
 * any of them, so pods with the old list and pods with the new one find the same profiles while a rollout and a
 * {@code reindex} run (docs/security.md, "Numbers in the index"). Each hash names its key ({@code k2:...}).
 */
public final class NumberKeys {

    /** What a value is: part of what is hashed, so that a phone and a document number with one set of digits differ. */
    public enum Kind {
        PHONE, DOCUMENT, EMAIL
    }

    /** {@code id:base64,id:base64}; an id is what each hash starts with. */
    private static final Pattern ID = Pattern.compile("[a-z0-9]{1,16}");
    static final int MIN_KEY_BYTES = 32;
    /** Of the MAC's 32 bytes, 16 are kept: no two of a few hundred million numbers share them by chance. */
    private static final int HASH_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";
    /**
     * For a local run with authentication off alone (the configuration refuses it otherwise): written here, so it
     * protects nothing.
     */
    static final String DEVELOPMENT = "dev:" + Base64.getEncoder().encodeToString(
            "profile-store development key, for local runs only".getBytes(StandardCharsets.US_ASCII));

    private record Key(String id, SecretKeySpec secret) {
    }

    private final List<Key> keys;
    private final boolean development;

    private NumberKeys(List<Key> keys, boolean development) {
        this.keys = List.copyOf(keys);
        this.development = development;
    }

    /**
     * Reads {@code id:base64[,id:base64...]}: ids of lower-case letters and digits, each used once, each key at least
     * 32 bytes ({@code openssl rand -base64 32}).
     *
     * @throws IllegalArgumentException saying what is wrong, never showing a key
     */
    public static NumberKeys parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no key is given");
        }
        var keys = new ArrayList<Key>();
        var ids = new HashSet<String>();
        for (String entry : text.strip().split("\\s*,\\s*")) {
            int colon = entry.indexOf(':');
            String id = colon < 0 ? "" : entry.substring(0, colon);
            if (!ID.matcher(id).matches()) {
                throw new IllegalArgumentException("each key must be written id:base64, with an id of 1 to 16 "
                        + "lower-case letters and digits (entry " + (keys.size() + 1) + ")");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException("the key id " + id + " is given twice");
            }
            byte[] secret;
            try {
                secret = Base64.getDecoder().decode(entry.substring(colon + 1));
            } catch (IllegalArgumentException notBase64) {
                throw new IllegalArgumentException("the key " + id + " is not base64");
            }
            if (secret.length < MIN_KEY_BYTES) {
                throw new IllegalArgumentException("the key " + id + " has " + secret.length + " bytes; at least "
                        + MIN_KEY_BYTES + " are needed (openssl rand -base64 32)");
            }
            keys.add(new Key(id, new SecretKeySpec(secret, ALGORITHM)));
            Arrays.fill(secret, (byte) 0);
        }
        return new NumberKeys(keys, false);
    }

    /** The configured keys, or with none configured the development key (which the configuration allows only then). */
    public static NumberKeys configured(String text) {
        return text == null || text.isBlank() ? new NumberKeys(parse(DEVELOPMENT).keys, true) : parse(text);
    }

    /** Whether these are the development key, written in this source: then the index's hashes protect nothing. */
    public boolean development() {
        return development;
    }

    /** The keys' ids, in the order given. */
    public List<String> ids() {
        return keys.stream().map(Key::id).toList();
    }

    /** The value's hash under each key, each {@code id:base64url}: what the index holds and what a search asks for. */
    public List<String> hashes(Kind kind, String value) {
        byte[] input = (kind.name() + '\u0000' + value).getBytes(StandardCharsets.UTF_8);
        var hashes = new ArrayList<String>(keys.size());
        for (var key : keys) {
            hashes.add(key.id() + ':' + Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(Arrays.copyOf(mac(key).doFinal(input), HASH_BYTES)));
        }
        return hashes;
    }

    /** The hashes of several values, each value's under every key, once each. */
    public List<String> hashes(Kind kind, List<String> values) {
        var all = new ArrayList<String>();
        for (String value : values) {
            hashes(kind, value).stream().filter(hash -> !all.contains(hash)).forEach(all::add);
        }
        return all;
    }

    private static Mac mac(Key key) {
        try {
            // a Mac holds state between calls: one per hash costs about a microsecond, less than sharing one would
            var mac = Mac.getInstance(ALGORITHM);
            mac.init(key.secret());
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has " + ALGORITHM, e);
        }
    }

    @Override
    public String toString() {
        return "NumberKeys" + ids();
    }
}
