package io.tcpload.runner.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The version a module's POM declares, read from the file itself: what the build's filtered version
 * must match.
 */
public final class Pom {
    private Pom() {}

    /**
     * The project version of the module whose tests run in the working directory: its own {@code
     * <version>}, else its parent's.
     */
    public static String projectVersion() {
        return projectVersion(Path.of("pom.xml"));
    }

    static String projectVersion(Path pom) {
        Element project = parse(pom);
        String own = childText(project, "version");
        if (own != null) {
            return own;
        }
        Element parent = child(project, "parent");
        String inherited = parent == null ? null : childText(parent, "version");
        if (inherited == null) {
            throw new IllegalStateException(pom + " declares no version");
        }
        return inherited;
    }

    private static Element parse(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder()
                    .parse(Files.newInputStream(pom))
                    .getDocumentElement();
        } catch (IOException | ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }

    /** The direct child element of that name (not a nested one, e.g. a dependency's version). */
    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    private static String childText(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().strip();
    }
}
