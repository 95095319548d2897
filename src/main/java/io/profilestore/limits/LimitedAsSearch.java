package io.profilestore.limits;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A GET that looks people up as a search does (a profile's possible duplicates), limited with the caller's searches,
 * not its reads.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface LimitedAsSearch {
}
