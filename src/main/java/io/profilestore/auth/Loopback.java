package io.profilestore.auth;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * This machine's own addresses, told from the text alone (no name is looked up: a name that resolves to loopback
 * today may not tomorrow): the name {@code localhost}, which resolves to loopback by definition (RFC 6761), and the
 * literals of 127.0.0.0/8 and ::1.
 */
public final class Loopback {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private Loopback() {
    }

    /** @param host a host name or address literal, IPv6 with or without brackets */
    public static boolean isLoopback(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        var ipv4 = IPV4.matcher(bare);
        if (ipv4.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(ipv4.group(i)) > 255) {
                    return false;
                }
            }
            return ipv4.group(1).equals("127");
        }
        if (!bare.contains(":") || !bare.matches("[0-9A-Fa-f:]+")) {
            return false;
        }
        try {
            // a literal with a colon is parsed, never looked up
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException malformed) {
            return false;
        }
    }

    /**
     * Whether a URL may be trusted to carry keys or sign-in pages: https, or http to this machine only (tests' fake
     * providers). Anything on the path of a plain http URL could swap what it serves.
     */
    public static boolean isHttpsOrLocalHttp(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return uri.getHost() != null && (scheme.equals("https") || scheme.equals("http") && isLoopback(uri.getHost()));
    }
}
