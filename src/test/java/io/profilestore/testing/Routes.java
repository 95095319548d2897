package io.profilestore.testing;

import jakarta.ws.rs.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;

/** The routes of a running application as its resources declare them: path template to HTTP methods. */
public final class Routes {

    private Routes() {
    }

    public static TreeMap<String, Set<String>> of(ResourceConfig config) {
        var routes = new TreeMap<String, Set<String>>();
        Stream.concat(config.getClasses().stream(), config.getInstances().stream().map(Object::getClass))
                .filter(type -> type.isAnnotationPresent(Path.class))
                .map(Resource::from)
                .forEach(resource -> collect("", resource, routes));
        return routes;
    }

    private static void collect(String prefix, Resource resource, TreeMap<String, Set<String>> routes) {
        String path = join(prefix, resource.getPath());
        for (ResourceMethod method : resource.getResourceMethods()) {
            routes.computeIfAbsent(path, p -> new TreeSet<>()).add(method.getHttpMethod());
        }
        resource.getChildResources().forEach(child -> collect(path, child, routes));
    }

    private static String join(String prefix, String path) {
        String joined = (prefix.endsWith("/") ? prefix : prefix + "/") + (path.startsWith("/") ? path.substring(1) : path);
        return joined.endsWith("/") && joined.length() > 1 ? joined.substring(0, joined.length() - 1) : joined;
    }
}
