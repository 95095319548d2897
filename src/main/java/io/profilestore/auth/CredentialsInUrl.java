package io.profilestore.auth;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a URL's parameters (query or matrix, decoded) carry a credential: under a name that carries one by
 * convention, or as a value shaped like one of ours under any name ({@code psk_…} API keys, JWTs, "Bearer …").
 * A URL ends up in proxy logs, browser history and the audit record's request line, where a header does not.
 */
final class CredentialsInUrl {

    /** Parameter names that carry credentials by convention; matched case aside (they are plain ASCII). */
    private static final Set<String> NAMES = Set.of("access_token", "accesstoken", "api_key", "apikey", "token",
            "id_token", "authorization", "auth", "jwt", "bearer");

    /** An API key, a JWT (header and payload are base64url JSON objects: eyJ), or a bearer credential. */
    private static final Pattern VALUE = Pattern.compile(
            "(?i)(?:^|\\s|bearer\\s+)(?:psk_\\S{8,}|eyJ[A-Za-z0-9_-]+\\.eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*)");

    static final String DETAIL = "send credentials only in the Authorization header (Bearer); a URL is logged and "
            + "kept where a header is not. Treat a token sent this way as exposed: replace it";

    private CredentialsInUrl() {
    }

    static boolean carries(Map<String, ? extends Collection<String>> parameters) {
        for (var parameter : parameters.entrySet()) {
            if (NAMES.contains(parameter.getKey().toLowerCase(Locale.ROOT))) {
                return true;
            }
            for (String value : parameter.getValue()) {
                if (value != null && VALUE.matcher(value).find()) {
                    return true;
                }
            }
        }
        return false;
    }
}
