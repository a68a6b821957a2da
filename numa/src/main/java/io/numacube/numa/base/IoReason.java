package io.numacube.numa.base;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The reason of an I/O failure in the words of the operating system ("no such file or directory", "permission
 * denied", "No space left on device"), without Java class names, for the {@code error=} fact of a message.
 * Stateless.
 */
public final class IoReason {

    private IoReason() {}

    /** Why {@code e} happened, as a user reads it. */
    public static String of(IOException e) {
        String why = switch (e) {
            case NoSuchFileException x -> "no such file or directory";
            case AccessDeniedException x -> "permission denied";
            case FileAlreadyExistsException x -> "it already exists";
            case NotDirectoryException x -> "not a directory";
            case DirectoryNotEmptyException x -> "directory not empty";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            default -> e.getMessage();
        };
        if (why == null || why.isBlank()) {
            return e.getClass()
                    .getSimpleName()
                    .replaceAll("Exception$", "")
                    .replaceAll("([a-z])([A-Z])", "$1 $2")
                    .toLowerCase(java.util.Locale.ROOT);
        }
        if (e instanceof FileSystemException fs && fs.getOtherFile() != null) {
            why += " (" + fs.getOtherFile() + ")";
        }
        return why;
    }
}
